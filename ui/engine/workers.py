"""Heavy fits in worker processes, so that one visitor's fit never holds the server's processor.

The app fits in its own process when a fit is quick (``ui.session.compute`` tries it under a short
budget first). A fit that needs longer goes to a small pool of worker processes started with
``python -m ui.engine.workers``, at a lower scheduling priority (``nice``), each fitting one scene at a
time under the full per-fit budget (``playground.budget``). Other visitors' clicks are served by
the server process meanwhile, which the operating system prefers over the workers.

- One task per scene: a second request for a scene being fitted (a reload, a shared link opened
  by a class) waits for the same task instead of starting another.
- A task lives while someone waits for it: waiters renew a lease every few tenths of a second;
  a task nobody has waited for during ``LEASE_SECONDS`` (the page was closed, the visitor moved
  on) is cancelled, and its worker stops at its next iteration.
- A task can be stopped (the page's Stop button): the worker returns the state reached.
- A worker that does not stop, dies or exceeds its hard limit is killed and replaced.

This module imports nothing from streamlit: the workers run it as their main module.
"""

import os
import pickle
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Hashable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from playground.base import Classifier
from playground.budget import Budget
from playground.errors import Message
from playground.scene import Settings
from playground.validation import FloatArray, LabelArray

from .cache import approx_bytes, result_cache, setting

ROOT = Path(__file__).resolve().parents[2]
LEASE_SECONDS = 1.5  # a task nobody waited for this long is cancelled
PROGRESS_SECONDS = 0.1  # how often a worker reports progress
GRACE_SECONDS = 3.0  # after a cancel, before the worker is killed
HARD_EXTRA_SECONDS = 20.0  # past the budget (the view's evaluation is not budgeted), before it is killed
WORKER_NICE = 10  # the server process keeps priority over the workers
TASKS_PER_WORKER = 500  # then the worker is replaced (returns the memory a long life may hold)


def fit_scene(
    X: FloatArray, y: LabelArray, method: str, params: Settings, multiclass: str, basis: str, basis_params: Settings
) -> tuple[Classifier | None, Message | None]:
    """(model, error): the scene's method fitted on (X, y), or None and the PlaygroundError's
    ``Message`` (no language is known here: the session phrases it where it is shown).

    Runs under the budget in force (``playground.budget.limited``). When sub-problems of a
    one-versus-rest / one-versus-one fit ran out of their share, a model without a message of
    its own gets one that says so.
    """
    from playground import PlaygroundError, make_model
    from playground.basis import make_basis
    from playground.budget import current_budget

    _count_fit(method, len(X))
    try:
        phi = None if basis == "identity" else make_basis(basis, **dict(basis_params))
        model = make_model(method, multiclass=multiclass, basis=phi, **dict(params))
        model.fit(X, y)
    except PlaygroundError as err:
        return None, err.message
    budget = current_budget()
    if budget.parts_stopped and not getattr(model, "fit_message_", None):
        model.fit_message_ = budget_summary(budget)
    return model, None


FIT_LOG = "PLAYGROUND_FIT_LOG"  # a file each fit appends a line to (benchmarks count fits with it)


def _count_fit(method: str, n_points: int) -> None:
    """Append one line per fit to the file named by ``PLAYGROUND_FIT_LOG`` (if set): the server
    and its worker processes alike, so a benchmark counts the fits a scene cost, not guesses."""
    path = os.environ.get(FIT_LOG)
    if path:
        with open(path, "a") as log:  # one short write in append mode: lines never interleave
            log.write(f"{time.time():.3f} {os.getpid()} {method} {n_points}\n")


def budget_summary(budget: Budget) -> Message:
    """One sentence (a ``Message``) for a multi-class fit some of whose sub-problems were stopped early."""
    from playground import Message
    from playground.i18n import N_

    if budget.stopped == "cancelled":
        return Message(
            N_("Stopped on request after {seconds:.1f} s; the boundaries shown are the last ones reached."),
            seconds=budget.elapsed,
        )
    values = {"stopped": budget.parts_stopped, "parts": budget.parts_total}
    if budget.max_steps is not None and budget.steps >= budget.max_steps:
        template = N_(
            "{stopped} of {parts} sub-problems were stopped before they finished: one fit may take at most "
            "{limit:,} recorded steps here, shared among its sub-problems. Their boundaries are the last ones reached."
        )
        return Message(template, limit=budget.max_steps, **values)
    if budget.seconds is not None:
        template = N_(
            "{stopped} of {parts} sub-problems were stopped before they finished: one fit may take at most "
            "{limit:g} s here, shared among its sub-problems. Their boundaries are the last ones reached."
        )
        return Message(template, limit=budget.seconds, **values)
    template = N_(
        "{stopped} of {parts} sub-problems were stopped before they finished: one fit may take its share of the "
        "time here, shared among its sub-problems. Their boundaries are the last ones reached."
    )
    return Message(template, **values)


class Task:
    """One scene being fitted in a worker; waiters poll it, renewing its lease."""

    def __init__(
        self, key: Hashable, payload: tuple[Any, ...], seconds: float | None, view: tuple[Any, ...] | None = None
    ) -> None:
        self.key = key
        self.payload = payload
        self.view_key: Hashable | None = view[0] if view else None
        self.view_args: tuple[Any, ...] | None = view[1:] if view else None
        self.view: Any = None  # the FitView evaluated with the fit, when asked
        self.seconds = seconds
        self.created = time.monotonic()
        self.waiters: dict[str | None, float] = {}  # who waits (a session id; None: anonymous) -> when they last did
        self.owner: str | None = None  # who asked first: the others wait for the fit that visitor started
        self.started: float | None = None  # when a worker took it
        self.progress = (0.0, 0.0, "")  # elapsed, fraction of the budget, what is being fitted
        self.cancel_requested = False
        self.result: tuple[Classifier | None, Message | None] | None = None  # (model, error) once done
        self.result_bytes = 0
        self.stopped: str | None = None  # why the fit stopped early: "time", "steps", "cancelled" or None
        self.failure: str | None = None  # text of an unexpected error in the worker
        self._done = threading.Event()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    @property
    def last_wanted(self) -> float:
        return max(list(self.waiters.values()), default=self.created)

    def want(self, waiter: str | None = None) -> None:
        """Renew the lease: ``waiter`` (a session id) still waits for this task."""
        self.waiters[waiter] = time.monotonic()

    def leave(self, waiter: str | None = None) -> None:
        self.waiters.pop(waiter, None)

    def others_waiting(self, waiter: str | None = None) -> bool:
        """Whether anyone but ``waiter`` has waited for this task within the lease."""
        now = time.monotonic()
        return any(now - when <= LEASE_SECONDS for who, when in list(self.waiters.items()) if who != waiter)

    def wait(self, seconds: float, waiter: str | None = None) -> bool:
        self.want(waiter)
        return self._done.wait(seconds)

    def finish(
        self,
        result: tuple[Classifier | None, Message | None] | None = None,
        *,
        nbytes: int = 0,
        stopped: str | None = None,
        failure: str | None = None,
    ) -> None:
        self.result, self.result_bytes, self.stopped, self.failure = result, nbytes, stopped, failure
        self._done.set()


class _Worker:
    """One worker process and the server-side thread that feeds it tasks."""

    def __init__(self, pool: "WorkerPool", index: int) -> None:
        self.pool = pool
        self.index = index
        self.process: subprocess.Popen[bytes] | None = None
        self.connection: Connection | None = None
        self.tasks_done = 0
        self.thread = threading.Thread(target=self._serve, name=f"fit-worker-{index}", daemon=True)
        self.thread.start()

    def _start(self) -> tuple[subprocess.Popen[bytes], Connection]:
        parent, child = socket.socketpair()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(":"))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ui.engine.workers", str(child.fileno()), str(WORKER_NICE)],
            pass_fds=[child.fileno()],
            cwd=ROOT,
            env=env,
            start_new_session=True,  # a Ctrl+C at the server's terminal is the server's to handle
        )
        child.close()
        self.connection = Connection(parent.detach())
        self.tasks_done = 0
        return self.process, self.connection

    def _stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        if self.connection is not None:
            self.connection.close()
        self.process, self.connection = None, None

    def _serve(self) -> None:
        while True:
            task = self.pool._next_task()
            if task is None:
                self._stop()
                return
            try:
                self._run(task)
            except (OSError, EOFError) as err:
                self._stop()
                task.finish(failure=f"the worker process failed ({err})")
            except Exception:  # never let the feeding thread die
                self._stop()
                task.finish(failure=traceback.format_exc(limit=3))
            finally:
                self.pool._release(task)

    def _run(self, task: Task) -> None:
        if (
            self.process is None
            or self.connection is None
            or self.process.poll() is not None
            or self.tasks_done >= TASKS_PER_WORKER
        ):
            self._stop()
            process, connection = self._start()
        else:
            process, connection = self.process, self.connection
        task.started = time.monotonic()
        connection.send_bytes(pickle.dumps(("fit", task.seconds, self.pool.max_steps, task.payload, task.view_args)))
        cancel_sent = None
        hard_limit = task.started + (task.seconds or 60.0) + HARD_EXTRA_SECONDS
        while True:
            if connection.poll(PROGRESS_SECONDS):
                data = connection.recv_bytes()
                kind, *rest = pickle.loads(data)
                if kind == "progress":
                    task.progress = rest[0]
                    continue
                self.tasks_done += 1
                if kind == "done":
                    result, stopped, task.view = rest
                    task.finish(result, nbytes=len(data), stopped=stopped)
                else:  # "error"
                    task.finish(failure=rest[0])
                return
            now = time.monotonic()
            if process.poll() is not None:
                raise OSError(f"it exited with code {process.returncode}")
            abandoned = now - task.last_wanted > LEASE_SECONDS
            if (task.cancel_requested or abandoned) and cancel_sent is None:
                connection.send_bytes(pickle.dumps(("cancel",)))
                cancel_sent = now
            if (cancel_sent is not None and now - cancel_sent > GRACE_SECONDS) or now > hard_limit:
                self._stop()  # it did not stop in time: kill it, a fresh one takes the next task
                task.finish(failure="the fit did not stop in time and its worker was replaced", stopped="cancelled")
                return


class WorkerPool:
    """A few worker processes fitting scenes, one task per distinct scene (see the module's text)."""

    def __init__(
        self,
        size: int,
        seconds: float | None,
        max_steps: int | None,
        on_done: Callable[[Task], None] | None = None,
    ) -> None:
        self.size = max(int(size), 1)
        self.seconds = seconds
        self.max_steps = max_steps
        self.on_done = on_done  # called with each finished task before it leaves the pool (to cache it)
        self._lock = threading.Condition()
        self._queue: deque[Task] = deque()
        self._tasks: dict[Hashable, Task] = {}  # key -> task, queued or running
        self._closed = False
        self._workers = [_Worker(self, index) for index in range(self.size)]

    def submit(
        self, key: Hashable, payload: tuple[Any, ...], waiter: str | None = None, view: tuple[Any, ...] | None = None
    ) -> Task:
        """The task fitting ``payload`` (the arguments of ``fit_scene``): the one in flight for
        ``key`` if any (queued or running, and not being cancelled), else a new one queued for the
        next free worker, owned by ``waiter``. Single flight: however many ask for a key at once,
        one task fits it and all of them get its result."""
        with self._lock:
            task = self._tasks.get(key)
            if task is None or task.cancel_requested:
                task = Task(key, payload, self.seconds, view)
                task.owner = waiter
                self._tasks[key] = task
                self._queue.append(task)
                self._lock.notify()
            task.want(waiter)
            return task

    def find(self, key: Hashable) -> Task | None:
        with self._lock:
            return self._tasks.get(key)

    def position(self, task: Task) -> int:
        """How many tasks are queued before ``task`` (0 when it runs or is next)."""
        with self._lock:
            try:
                return list(self._queue).index(task)
            except ValueError:
                return 0

    def cancel(self, task: Task) -> None:
        """Stop the task: dropped if still queued, else its worker stops and returns what it reached."""
        with self._lock:
            task.cancel_requested = True
            if task in self._queue:
                self._queue.remove(task)
                self._tasks.pop(task.key, None)
                task.finish(stopped="cancelled")

    def in_flight(self) -> int:
        with self._lock:
            return len(self._tasks)

    def _next_task(self) -> Task | None:
        with self._lock:
            while True:
                if self._closed:
                    return None
                # Drop queued tasks nobody waits for any more (the page moved on or closed).
                now = time.monotonic()
                for task in [t for t in self._queue if now - t.last_wanted > LEASE_SECONDS]:
                    self._queue.remove(task)
                    self._tasks.pop(task.key, None)
                    task.finish(stopped="cancelled")
                if self._queue:
                    return self._queue.popleft()
                self._lock.wait(LEASE_SECONDS)

    def _release(self, task: Task) -> None:
        if self.on_done is not None and task.failure is None:
            try:
                self.on_done(task)
            except Exception:  # a caching problem must not stop the worker's thread
                traceback.print_exc()
        with self._lock:
            if self._tasks.get(task.key) is task:
                del self._tasks[task.key]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        for worker in self._workers:
            worker.thread.join(5)
            worker._stop()


FIT_SECONDS = setting("PLAYGROUND_FIT_SECONDS", 2.0)  # one fit's time, in a worker
MAX_RECORDED_STEPS = 50_000  # steps one fit may keep for playback, in all its sub-problems
FIT_WORKERS = int(setting("PLAYGROUND_FIT_WORKERS", min(os.cpu_count() or 1, 4), int))  # 0: fit in the server
_POOL: "WorkerPool | None" = None
_POOL_LOCK = threading.Lock()


def _cache_finished_task(task: Task) -> None:
    """A task's fit (and the view evaluated with it) into the server's shared cache."""
    if task.stopped != "cancelled" and task.result is not None:
        cache = result_cache()
        cache.put(task.key, task.result, task.result_bytes)
        if task.view is not None and task.view_key is not None:
            cache.put(task.view_key, task.view, approx_bytes(task.view))


def worker_pool() -> "WorkerPool | None":
    """The process-wide pool of fitting processes (started at its first use), or None when fits
    run in the server (``PLAYGROUND_FIT_WORKERS=0``)."""
    global _POOL
    if FIT_WORKERS <= 0:
        return None
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = WorkerPool(FIT_WORKERS, FIT_SECONDS, MAX_RECORDED_STEPS, on_done=_cache_finished_task)
        return _POOL


# ---- the worker process ---------------------------------------------------------------------


def _worker_main(fd: int, nice: int) -> None:
    """Serve fits on the socket ``fd`` until the server closes it."""
    import numpy  # noqa: F401  (imported before the first task, not during it)

    from playground.budget import Budget, limited

    try:
        os.nice(nice)
    except OSError:
        pass
    connection = Connection(fd)
    send_lock = threading.Lock()

    def send(message: tuple[Any, ...]) -> None:
        with send_lock:
            connection.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    while True:
        try:
            message = pickle.loads(connection.recv_bytes())
        except (EOFError, OSError):
            return  # the server went away
        if message[0] != "fit":
            continue  # a cancel for a task already finished
        _unused, seconds, max_steps, payload, view_args = message
        budget = Budget(seconds, max_steps)
        finished = threading.Event()

        def report(budget: Budget = budget, finished: threading.Event = finished) -> None:
            # Progress out, a cancel in; if the server is gone, stop the fit.
            while not finished.wait(PROGRESS_SECONDS):
                try:
                    while connection.poll():
                        if pickle.loads(connection.recv_bytes())[0] == "cancel":
                            budget.cancel()
                    send(("progress", budget.progress()))
                except (EOFError, OSError):
                    budget.cancel()
                    return

        reporter = threading.Thread(target=report, daemon=True)
        reporter.start()
        try:
            with limited(budget=budget):
                result = fit_scene(*payload)
            view = None
            if view_args is not None and budget.stopped != "cancelled":
                from ui.engine.fitview import evaluate_view

                view = evaluate_view(result, payload[0], payload[1], *view_args)
            message = ("done", result, budget.stopped, view)
        except Exception:
            message = ("error", traceback.format_exc(limit=5))
        finished.set()
        reporter.join()
        try:
            send(message)
        except (EOFError, OSError):
            return


if __name__ == "__main__":
    _worker_main(int(sys.argv[1]), int(sys.argv[2]))
