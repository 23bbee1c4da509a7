"""Reading the shell commands of README.md and docs/*.md, to run them as written.

A command is one logical line of a ``sh`` block (a trailing backslash joins
the next line), with its comment removed and leading ``VAR=value``
assignments split off as its environment. ``truco-arena`` and ``python``
become this interpreter's, which is what they are in the venv the README
has the reader activate.
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CLI = [sys.executable, "-c", "from arena.cli import main; main()"]


@dataclass(frozen=True)
class Command:
    env: dict[str, str]
    argv: list[str]  # as written: "truco-arena", "python" not yet replaced
    line: str  # the text, for messages

    @property
    def text(self) -> str:
        """The command without its comment or environment: what the
        dispositions of test_doc_commands.py name it by."""
        return shlex.join(self.argv)

    @property
    def is_synopsis(self) -> bool:
        """A usage line (``match A B [--games N]``): placeholders and optional
        parts, not a command to run. Its options are still checked."""
        return any(w.startswith("[") or (w.endswith("]") and "[" not in w) or w.endswith("...")
                   or re.fullmatch(r"[A-Z][A-Z0-9_]*", w) for w in self.argv[1:])

    def resolved(self, replace: dict[str, str] | None = None) -> list[str]:
        """The argv to run here: ``replace`` maps written words (placeholders,
        ports) to the values of this run."""
        words = [_substitute(w, replace or {}) for w in self.argv]
        if words[0] == "truco-arena":
            return CLI + words[1:]
        if words[0] == "python":
            return [sys.executable, *words[1:]]
        return words

    def environment(self, replace: dict[str, str] | None = None) -> dict[str, str]:
        return {k: _substitute(v, replace or {}) for k, v in self.env.items()}


def _substitute(word: str, replace: dict[str, str]) -> str:
    for old, new in replace.items():
        word = word.replace(old, new)
    return word


def section(text: str, heading: str) -> str:
    """The text under the Markdown heading ``heading`` (any level) up to the
    next heading of that level or above; ``#`` lines inside code blocks are
    not headings."""
    lines = text.splitlines(keepends=True)
    start, level, fenced = None, 0, False
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        heading_match = None if fenced else re.match(r"(#+) (.*)\n?$", line)
        if heading_match is None:
            continue
        if start is None and heading_match.group(2) == heading:
            start, level = i + 1, len(heading_match.group(1))
        elif start is not None and len(heading_match.group(1)) <= level:
            return "".join(lines[start:i])
    assert start is not None, f"no heading {heading!r}"
    return "".join(lines[start:])


def blocks(text: str, lang: str) -> list[str]:
    """The fenced code blocks of ``lang`` ("" for unlabelled ones), indented
    ones (in lists) included. Fences are paired in order, so the closing
    fence of one block never opens another."""
    found: list[str] = []
    opened: tuple[str, str] | None = None  # (indent, lang) of the open block
    body: list[str] = []
    for line in text.splitlines():
        fence = re.fullmatch(r"([ \t]*)```(\w*)\s*", line)
        if opened is None:
            if fence is not None:
                opened, body = (fence.group(1), fence.group(2)), []
        elif fence is not None and fence.group(2) == "" and fence.group(1) == opened[0]:
            if opened[1] == lang:
                found.append("\n".join(b[len(opened[0]):] for b in body))
            opened = None
        else:
            body.append(line)
    return found


def commands(block: str) -> list[Command]:
    logical: list[str] = []
    pending = ""
    for raw in block.splitlines():
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        logical.append(pending + raw)
        pending = ""
    out = []
    for line in logical:
        words = shlex.split(line, comments=True)
        if not words:
            continue
        env = {}
        while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
            key, _, value = words.pop(0).partition("=")
            env[key] = value
        out.append(Command(env, words, line.strip()))
    return out


def inline_spans(text: str) -> list[str]:
    """The inline code spans (`...`) of ``text`` outside fenced blocks, a
    span that wraps a line joined with a space."""
    prose = re.sub(r"^([ \t]*)```.*?^\1```", "", text, flags=re.M | re.S)
    return [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)]


DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]


def _fenced() -> list[tuple[str, Command]]:
    """(doc, command) for every command line of every fenced block: `sh`
    blocks, and the `truco-arena` lines (or `$ ` prompts) of unlabelled ones,
    which otherwise hold output, TOML or a transcript."""
    found: list[tuple[str, Command]] = []
    for doc in DOCS:
        name = str(doc.relative_to(ROOT))
        for lang in ("sh", ""):
            for block in blocks(doc.read_text(), lang):
                lines = block.splitlines()
                if lang == "":
                    lines = [line.removeprefix("$ ") for line in lines
                             if line.startswith(("truco-arena ", "$ truco-arena "))]
                for command in commands("\n".join(lines)):
                    found.extend((name, part) for part in _split_and(command))
    return found


def _split_and(command: Command) -> list[Command]:
    """`a && b` as two commands."""
    parts: list[list[str]] = [[]]
    for word in command.argv:
        if word == "&&":
            parts.append([])
        else:
            parts[-1].append(word)
    return [Command(command.env if i == 0 else {}, p, shlex.join(p)) for i, p in enumerate(parts) if p]


EXAMPLES = _fenced()

def example(doc: str, text: str) -> Command:
    """The command ``text`` of ``doc``, as the docs have it now."""
    found = [c for d, c in EXAMPLES if d == doc and c.text == text]
    assert found, f"{doc} has no command {text!r} any more"
    return found[0]
