"""A stand-in for the few Ray calls the training backend makes, run in this process (no Ray needed).

Actor calls are run lazily, when their result is asked for, by the actor incarnation they were sent to; ``kill``
ends an incarnation (its unfinished calls raise ``RayActorError``, like calls on a dead actor) and the next call
starts a new one, as Ray's ``max_restarts`` does. It checks the learner's bookkeeping (dispatch, in-order
consumption, lost units, checkpointed in-flight records), not Ray itself: tests/ray/test_ray_training.py runs the
same scenario on a real local Ray instance.
"""

from __future__ import annotations

import itertools
import types


class RayActorError(Exception):
    """The actor died before the call finished."""


exceptions = types.SimpleNamespace(RayActorError=RayActorError)
_initialized = False
_pids = itertools.count(1000)


class ObjectRef:
    def __init__(self, value=None, call=None):
        self.value, self.call, self.done = value, call, call is None

    def resolve(self):
        if not self.done:
            handle, incarnation, name, args = self.call
            if handle.incarnation != incarnation:
                raise RayActorError("the actor died")
            self.value = getattr(handle.instance(), name)(*args)
            self.done = True
        return self.value


class _Method:
    def __init__(self, handle, name):
        self.handle, self.name = handle, name

    def remote(self, *args):
        return ObjectRef(call=(self.handle, self.handle.incarnation, self.name, args))


class ActorHandle:
    def __init__(self, cls, args):
        self.cls, self.args, self.incarnation, self._instance, self._built = cls, args, 0, None, -1

    def instance(self):
        if self._built != self.incarnation:
            self._instance = self.cls(*self.args)
            self._instance.pid = next(_pids)  # a new process
            self._built = self.incarnation
        return self._instance

    def __getattr__(self, name):
        if name.startswith("_") or name in ("cls", "args", "incarnation"):
            raise AttributeError(name)
        return _Method(self, name)


class _ActorClass:
    def __init__(self, cls):
        self.cls = cls

    def options(self, **kwargs):
        return self

    def remote(self, *args):
        return ActorHandle(self.cls, args)


def remote(cls):
    return _ActorClass(cls)


def is_initialized():
    return _initialized


def init(*args, **kwargs):
    global _initialized
    _initialized = True


def shutdown():
    global _initialized
    _initialized = False


def cluster_resources():
    return {"CPU": 2.0}


def put(value):
    return ObjectRef(value)


def get(ref):
    if isinstance(ref, list):
        return [get(r) for r in ref]
    return ref.resolve()


def kill(handle, no_restart=True):
    handle.incarnation += 1  # calls sent to the old incarnation fail; the next call restarts it
