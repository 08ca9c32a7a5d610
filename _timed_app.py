"""streamlit_app.py with per-run thread CPU logged to $PG_TIMING (profiling only)."""
import os, time, json, threading
import streamlit.runtime.scriptrunner.script_runner as sr
if not getattr(sr.ScriptRunner, "_pg_timed", False):
    original = sr.ScriptRunner._run_script
    def timed(self, rerun_data):
        t0 = time.thread_time()
        try:
            return original(self, rerun_data)
        finally:
            with open(os.environ["PG_TIMING"], "a") as f:
                f.write(json.dumps({"kind": "run", "frag": bool(rerun_data.fragment_id_queue), "cpu": time.thread_time() - t0, "t": time.time()}) + "\n")
    sr.ScriptRunner._run_script = timed
    sr.ScriptRunner._pg_timed = True
    import ui.server.live_route as lr
    orig_live = lr.live_response
    def live_timed(body, clock):
        t0 = time.thread_time()
        try:
            return orig_live(body, clock)
        finally:
            with open(os.environ["PG_TIMING"], "a") as f:
                f.write(json.dumps({"kind": "live", "cpu": time.thread_time() - t0, "t": time.time()}) + "\n")
    lr.live_response = live_timed
exec(compile(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "streamlit_app.py")).read(), "streamlit_app.py", "exec"))
