"""Checks demo frames against the REAL AgentScope Python classes (the mirrored reference commit).

Usage: python3 reference_check.py <agentscope-src-dir>  < {"runs": {"<name>": [frame json text, ...], ...}}
Prints {"<name>": {"reserialised": [...], "replies": [...], "statuses": [...]}, ...} where
- reserialised[i] is json.dumps(AgentEvent.validate_json(frame).model_dump(mode="json"), ensure_ascii=False) —
  what the service would write for that event — or {"invalid": message};
- replies are the final Msg dumps, grouped as the AgentScope web UI groups them (REPLY_START opens a Msg with
  id = reply_id, a repeated REPLY_START continues it; CUSTOM is routed aside; everything else is append_event'ed
  onto the current reply);
- statuses[i] is "ok", "raised: <error>" or "skipped".
Third-party modules the event/message packages import but never use for this (httpx, mcp, …) are stubbed.
"""
import importlib.abc
import importlib.machinery
import json
import sys
from unittest.mock import MagicMock

STUBS = set()


class _Stub(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in STUBS:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        module = MagicMock(name=spec.name)
        module.__path__ = []
        module.__spec__ = spec
        module.__name__ = spec.name
        return module

    def exec_module(self, module):
        pass


def _load(src):
    sys.meta_path.insert(0, _Stub())
    sys.path.insert(0, src)
    for _ in range(80):
        try:
            import agentscope.event  # noqa: F401
            import agentscope.message  # noqa: F401
            return
        except ModuleNotFoundError as err:
            top = (err.name or "").split(".")[0]
            if not top or top == "agentscope" or top in STUBS:
                raise
            STUBS.add(top)
            for key in [k for k in sys.modules if k.startswith("agentscope")]:
                del sys.modules[key]
    raise RuntimeError("could not import agentscope")


def main():
    _load(sys.argv[1])
    from pydantic import TypeAdapter
    from agentscope.event import AgentEvent, CustomEvent, ReplyStartEvent
    from agentscope.message import AssistantMsg

    adapter = TypeAdapter(AgentEvent)
    runs = json.load(sys.stdin)["runs"]
    out = {}
    for name, frames in runs.items():
        out[name] = check_run(adapter, frames, CustomEvent, ReplyStartEvent, AssistantMsg)
    json.dump(out, sys.stdout, ensure_ascii=False)


def check_run(adapter, frames, CustomEvent, ReplyStartEvent, AssistantMsg):  # pylint: disable=invalid-name
    """Validate, re-serialise and apply one session stream."""
    reserialised, statuses, replies = [], [], []
    current = None
    for text in frames:
        try:
            event = adapter.validate_json(text)
        except Exception as err:  # pylint: disable=broad-except
            reserialised.append({"invalid": str(err)})
            statuses.append("skipped")
            continue
        reserialised.append(json.dumps(event.model_dump(mode="json"), ensure_ascii=False))
        if isinstance(event, CustomEvent):
            statuses.append("skipped")
            continue
        if isinstance(event, ReplyStartEvent):
            current = next((m for m in replies if m.id == event.reply_id), None)
            if current is None:
                current = AssistantMsg(id=event.reply_id, name=event.name, content=[])
                replies.append(current)
            statuses.append("ok")
            continue
        try:
            current.append_event(event)
            statuses.append("ok")
        except Exception as err:  # pylint: disable=broad-except
            statuses.append(f"raised: {type(err).__name__}: {err}")
    return {
        "reserialised": reserialised,
        "statuses": statuses,
        "replies": [m.model_dump(mode="json") for m in replies],
    }


if __name__ == "__main__":
    main()
