"""A two-node Ray cluster on this machine's loopback, run as its own process
for the tests: ``python ray_cluster.py``. It prints the cluster's address on
its first line, then obeys lines on stdin: ``remove`` takes the second node
away (as a lost machine would go) and prints ``removed``; end of input shuts
the cluster down.

Own process, because Ray forks its daemons: forked from the test process,
where earlier tests left gRPC threads, a child can crash before it starts."""

from __future__ import annotations

import os
import sys
from typing import Any

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # read when ray is imported: every process on 127.0.0.1

from ray.cluster_utils import Cluster  # noqa: E402

NODE: dict[str, Any] = {"num_cpus": 1, "object_store_memory": 80 * 1024 * 1024}


def main() -> None:
    cluster = Cluster(initialize_head=True, head_node_args=dict(NODE))
    try:
        node = cluster.add_node(**NODE)
        cluster.wait_for_nodes()
        print(cluster.address, flush=True)
        for line in sys.stdin:
            if line.strip() == "remove":
                cluster.remove_node(node)
                print("removed", flush=True)
    finally:
        cluster.shutdown()  # type: ignore[no-untyped-call]


if __name__ == "__main__":
    main()
