"""Lines of code per package of arena/, as a table: all lines, and code lines
(no blank line, comment or docstring), at the working tree or at a git
revision.

    python benchmarks/loc.py                 # the working tree
    python benchmarks/loc.py --rev 50c546e   # a commit, for a before/after
"""

from __future__ import annotations

import argparse
import ast
import io
import subprocess
import tokenize
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def code_lines(source: str) -> int:
    """Lines with a token that is neither a comment nor a docstring."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return 0
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            docstrings.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    lines: set[int] = set()
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in skip and tok.start[0] not in docstrings:
            lines.update(range(tok.start[0], tok.end[0] + 1))
    return len(lines)


def files(rev: str | None) -> dict[str, str]:
    if rev is None:
        return {str(p.relative_to(REPO)): p.read_text() for p in (REPO / "arena").rglob("*.py")}
    names = subprocess.run(["git", "-C", str(REPO), "ls-tree", "-r", "--name-only", rev, "arena"],
                           capture_output=True, text=True, check=True).stdout.split()
    return {n: subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:{n}"], capture_output=True, text=True,
                              check=True).stdout for n in names if n.endswith(".py")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="a git revision instead of the working tree")
    args = parser.parse_args()
    total: Counter[str] = Counter()
    code: Counter[str] = Counter()
    for name, text in files(args.rev).items():
        if "_pb2" in name:
            continue
        parts = Path(name).parts
        package = parts[1] if len(parts) > 2 else parts[1].removesuffix(".py")
        total[package] += len(text.splitlines())
        code[package] += code_lines(text)
    print(f"{'package':<14}{'lines':>8}{'code':>8}")
    for package in sorted(total):
        print(f"{package:<14}{total[package]:>8}{code[package]:>8}")
    middle = ("games", "tournament", "league", "match")
    print(f"{'middle':<14}{sum(total[p] for p in middle):>8}{sum(code[p] for p in middle):>8}"
          "   (games + tournament + league + match)")


if __name__ == "__main__":
    main()
