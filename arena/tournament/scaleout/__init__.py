"""A tournament across several processes or machines.

The coordinator (``coordinator.py``) keeps the schedule, the secret and the
results store; it cuts the games into batches of whole duplicate pairs
(``batches.py``) and hands each batch to a worker. A worker
(``session.py``) runs its own arena on loopback with its own launched bots
and plays a batch, sending back each game's outcome as it ends. Workers are
local processes (``local.py``, speaking ``frames.py`` over pipes) or Ray
tasks on a cluster (``ray_backend.py``); both run the same ``WorkerSession``.

A worker that dies loses only the games it had not sent back yet: they go
back to the queue and another worker plays them. The store takes each game
once (its key is the primary key), so none is recorded twice.
"""
