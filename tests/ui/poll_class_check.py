#!/usr/bin/env python3
"""The whole of Ask the Class, end to end, as a class meets it: the app started offscreen with a poll open on a
shape question (--ask-class), the join address read from its standard output, the real student page answered in
headless Chromium (poll_browser.py) from the join address, and then the answer checked where the teacher sees it:
counted in the tally (the API's "answered") and written to the --class-log as one JSON line.

    poll_class_check.py APP WORKDIR
"""
import json
import os
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
# queries.view of the book's toy (b 2, 6 tokens, d_out 2, 2 heads): answered as a student might, a name here, a
# number there, and the layout questions.
ANSWERS = {"axis-0": "b", "axis-1": "6", "axis-2": "num_heads", "axis-3": "head_dim",
           "contiguous": "yes", "shares-storage": "yes"}


def fail(sentence):
    print("poll_class_check: " + sentence, file=sys.stderr)
    sys.exit(1)


def main():
    app, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    log = os.path.join(work, "class.jsonl")
    if os.path.exists(log):
        os.remove(log)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen([app, "--preset", "book", "--stage", "queries.view", "--ask-class",
                             "--class-address", "127.0.0.1", "--class-log", log],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        line = proc.stdout.readline()
        if not line.startswith("Ask the class: http://"):
            fail("the app did not print the join address; it printed %r." % line)
        join = line.split()[3]
        base, token = join.split("/?t=")
        # The poll asks once the window has its trace: wait for the question.
        deadline = time.time() + 30
        while True:
            state = json.load(urllib.request.urlopen(base + "/api/question?t=" + token, timeout=5))
            if state.get("question") or time.time() > deadline:
                break
            time.sleep(0.2)
        if state.get("question", {}).get("id") != "stage:queries.view":
            fail("the poll does not ask queries.view: %r." % state)
        run = subprocess.run([sys.executable, os.path.join(HERE, "poll_browser.py"), "--join", join,
                              "--answers", json.dumps(ANSWERS),
                              "--screenshot", os.path.join(work, "student-page.png")],
                             capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            fail("the browser could not answer: " + run.stderr.strip())
        # The phone cannot see the projector's settings: the page says the sizes and the code line.
        for said in ("batch = 2", "num_tokens = 6", "num_heads = 2",
                     "in the code: queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)"):
            if said not in run.stdout:
                fail("the student page does not say %r; it showed %r." % (said, run.stdout.strip()))
        state = json.load(urllib.request.urlopen(base + "/api/question?t=" + token, timeout=5))
        if state.get("answered") != 1:
            fail("the tally counts %r answers after one browser answered." % state.get("answered"))
        with open(log, encoding="utf-8") as f:
            lines = [json.loads(l) for l in f if l.strip()]
        if len(lines) != 1:
            fail("the log has %d lines after one answer." % len(lines))
        got = lines[0]
        if got["question"] != "stage:queries.view" or got["round"] != 1 or not got["device"].startswith("d-"):
            fail("the log line is not the answer given: %r." % got)
        if got["answer"] != ANSWERS:
            fail("the log keeps %r where the browser answered %r." % (got["answer"], ANSWERS))
        print("answered in Chromium, counted and logged: " + json.dumps(got["answer"]))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
