#!/usr/bin/env python3
"""Answer an Ask-the-class poll as a student would: in headless Chromium, through the page's real controls.

    poll_browser.py --join URL --answers '{"axis-0":"2","axis-1":"num_heads"}'
                    [--chromedriver /usr/bin/chromedriver] [--screenshot out.png] [--dark] [--full-page]
                    [--name Ada] [--code K7P2] [--timeout 20]

Starts chromedriver on a free port and speaks the W3C WebDriver protocol to it over plain HTTP (standard
library only: no selenium on the test machines). Opens the join URL at a phone's size (412x915), waits for
the question's form, fills each field named in --answers (types a number, taps a name, a yes/no, a choice,
the cells "i-j,..."), presses Send and waits for "Answer sent". Prints "answered QUESTION_ID round N" and
exits 0; on any failure prints one sentence to stderr and exits 1. Every wait is bounded, and the browser
and chromedriver are always ended, whatever happens.
"""
import argparse
import base64
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C key of an element reference


class Failure(Exception):
    """One sentence for stderr."""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def css_string(text):
    """A CSS string literal, so a field name or value cannot break the selector."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


class Driver:
    def __init__(self, base, timeout):
        self.base, self.timeout, self.session = base, timeout, None

    def call(self, method, path, body=None, timeout=30):
        url = self.base + (f"/session/{self.session}" if self.session else "") + path
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                return json.loads(res.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:  # WebDriver errors come back as {"value": {"error", "message"}}
            try:
                value = json.loads(e.read()).get("value", {})
                raise Failure(f"WebDriver {method} {path} failed: {value.get('error')}: "
                              f"{str(value.get('message', '')).splitlines()[0]}") from None
            except (ValueError, AttributeError):
                raise Failure(f"WebDriver {method} {path} failed with HTTP {e.code}.") from None
        except (urllib.error.URLError, socket.timeout, ConnectionError) as e:
            raise Failure(f"chromedriver did not answer {method} {path}: {e}.") from None

    def find_all(self, css):
        return [e[ELEMENT] for e in self.call("POST", "/elements", {"using": "css selector", "value": css})]

    def find(self, css):
        found = self.find_all(css)
        return found[0] if found else None

    def attr(self, el, name):
        return self.call("GET", f"/element/{el}/attribute/{name}")

    def text(self, el):
        return self.call("GET", f"/element/{el}/text")

    def click(self, el):
        self.call("POST", f"/element/{el}/click", {})

    def wait_for(self, what, check, timeout=None):
        """Calls check() until it returns something true; a bounded wait that names what it waited for."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            got = check()
            if got:
                return got
            if time.monotonic() > deadline:
                raise Failure(f"Gave up after {timeout or self.timeout:g} s waiting for {what}.")
            time.sleep(0.2)


def status_of(d):
    el = d.find("#status")
    return (d.attr(el, "data-kind") or "", d.text(el)) if el else ("", "")


def wait_for_form(d, code):
    """The question's form; types the room code first if the page asks for one."""
    joined = False

    def ready():
        nonlocal joined
        form = d.find("#poll[data-question]:not([hidden])")
        if form:
            return form
        if not d.find("#status"):
            raise Failure(f"{d.call('GET', '/url')} is not the poll page (did it load?).")
        if d.find("#join:not([hidden])"):
            kind, text = status_of(d)
            if not code or kind == "error" and joined:
                raise Failure("The page asks for a room code" + ("." if code else " (give --code, or a join URL"
                              " with ?t=).") + (f" It says: {text}" if text else ""))
            if not joined:
                box = d.find("#code")
                d.call("POST", f"/element/{box}/clear", {})
                d.call("POST", f"/element/{box}/value", {"text": code})
                d.click(d.find("#join-go"))
                joined = True
        return None

    return d.wait_for("the question's form (is a poll open?)", ready)


def fill(d, name, value):
    """Puts `value` into the field `name` through its controls, as a student's taps would."""
    field = d.find(f"fieldset[data-field={css_string(name)}]")
    if not field:
        raise Failure(f'The question has no field "{name}".')
    kind, inside = d.attr(field, "data-kind"), f"fieldset[data-field={css_string(name)}] "
    value = str(value)
    if kind == "size":
        button = d.find(inside + f"button[data-value={css_string(value)}]")
        if button:  # one of the axis names: tap it unless it is chosen already
            if d.attr(button, "aria-pressed") != "true":
                d.click(button)
            return
        box = d.find(inside + "input")
        d.call("POST", f"/element/{box}/clear", {})
        d.call("POST", f"/element/{box}/value", {"text": value})
    elif kind in ("yes-no", "choice"):
        button = d.find(inside + f"button[data-value={css_string(value)}]")
        if not button:
            raise Failure(f'Field "{name}" has no button for "{value}".')
        d.click(button)
    elif kind == "cells":
        want = {c.strip() for c in value.split(",") if c.strip()}
        cells = {d.attr(b, "data-cell"): b for b in d.find_all(inside + "button[data-cell]")}
        missing = sorted(want - set(cells))
        if missing:
            raise Failure(f'Field "{name}" has no cell {missing[0]} (its grid has {len(cells)} cells).')
        for cell, button in cells.items():
            if (cell in want) != (d.attr(button, "aria-pressed") == "true"):
                d.click(button)
    else:
        raise Failure(f'Field "{name}" is of a kind this driver does not know: "{kind}".')


def answer(d, args, answers):
    if args.dark:  # the page follows prefers-color-scheme; emulate it (--force-dark-mode alone may not)
        d.call("POST", "/goog/cdp/execute", {"cmd": "Emulation.setEmulatedMedia", "params": {
            "features": [{"name": "prefers-color-scheme", "value": "dark"}]}})
    d.call("POST", "/url", {"url": args.join}, timeout=args.timeout + 10)
    form = wait_for_form(d, args.code)
    question, round_ = d.attr(form, "data-question"), d.attr(form, "data-round")
    shown = d.find("#context:not([hidden])")  # the settings and code line, as the student reads them
    print("context: " + (d.text(shown).replace("\n", " | ") if shown else "(none shown)"))
    for name, value in answers.items():
        fill(d, name, value)
    if args.name:
        box = d.find("#name-box:not([hidden]) #name")
        if not box:
            raise Failure("--name was given, but the page shows no name box (the poll does not ask for names).")
        d.call("POST", f"/element/{box}/value", {"text": args.name})
    send = d.find("#send")
    if not d.call("GET", f"/element/{send}/enabled"):
        empty = [d.attr(f, "data-field") for f in d.find_all("fieldset[data-field]")
                 if d.attr(f, "data-field") not in answers and d.attr(f, "data-kind") != "cells"]
        kind, text = status_of(d)
        raise Failure("Send answer stays disabled: " + (f"fields {', '.join(empty)} have no answer." if empty
                                                         else (text or "the page does not take the answers given.")))
    d.click(send)

    def outcome():
        kind, text = status_of(d)
        if kind == "sent" and text.startswith("Answer sent"):
            return True
        if kind in ("error", "closed"):
            raise Failure(f"The page said: {text}")
        return False

    d.wait_for('"Answer sent"', outcome)
    if args.screenshot:
        if args.full_page:
            shot = d.call("POST", "/goog/cdp/execute", {"cmd": "Page.captureScreenshot", "params": {
                "format": "png", "captureBeyondViewport": True}})["data"]
        else:
            shot = d.call("GET", "/screenshot")
        with open(args.screenshot, "wb") as out:
            out.write(base64.b64decode(shot))
    return question, round_


def main():
    p = argparse.ArgumentParser(description="Answer an Ask-the-class poll in headless Chromium.")
    p.add_argument("--join", required=True, help="the join address, http://HOST:PORT/?t=TOKEN")
    p.add_argument("--answers", required=True, help='a JSON object: field name -> value as the API has it')
    p.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    p.add_argument("--chromium", help="the browser binary, if chromedriver does not find it")
    p.add_argument("--screenshot", help="save a PNG of the page once the answer is sent")
    p.add_argument("--full-page", action="store_true", help="the screenshot holds the whole page, not the screen")
    p.add_argument("--dark", action="store_true", help="as on a phone set to dark mode")
    p.add_argument("--name", help="the student's name, for a poll that asks for names")
    p.add_argument("--code", help="the room code to type if the page asks for one")
    p.add_argument("--timeout", type=float, default=20, help="seconds to wait for each step (default 20)")
    args = p.parse_args()

    proc, d = None, None
    try:
        try:
            answers = json.loads(args.answers)
        except ValueError as e:
            raise Failure(f"--answers is not JSON: {e}.") from None
        if not isinstance(answers, dict):
            raise Failure('--answers must be a JSON object such as {"axis-0": "2"}.')
        port = free_port()
        try:
            proc = subprocess.Popen([args.chromedriver, f"--port={port}"], stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as e:
            raise Failure(f"Cannot start {args.chromedriver}: {e.strerror}.") from None
        d = Driver(f"http://127.0.0.1:{port}", args.timeout)

        def up():
            if proc.poll() is not None:
                raise Failure(f"chromedriver exited at once with status {proc.returncode}.")
            try:
                return (d.call("GET", "/status", timeout=2) or {}).get("ready")
            except Failure:
                return False

        d.wait_for("chromedriver to start", up, timeout=15)
        chrome = {"args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=412,915"]
                  + (["--force-dark-mode"] if args.dark else [])}
        # Headless Chrome on Linux keeps windows at least 500 px wide; emulating the phone's metrics gives
        # the page a real 412 px viewport, with touch and the mobile viewport rules.
        chrome["mobileEmulation"] = {"deviceMetrics": {"width": 412, "height": 915, "pixelRatio": 1.0,
                                                       "touch": True, "mobile": True}}
        if args.chromium:
            chrome["binary"] = args.chromium
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": chrome,
                                                 "timeouts": {"pageLoad": int(args.timeout * 1000), "script": 5000}}}}
        d.session = d.call("POST", "/session", caps, timeout=60)["sessionId"]
        question, round_ = answer(d, args, answers)
        print(f"answered {question} round {round_}")
        return 0
    except Failure as e:
        print(e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return 1
    finally:
        if d is not None and d.session:
            try:
                d.call("DELETE", "", timeout=10)
            except Failure:
                pass  # chromedriver going down below ends the browser too
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


if __name__ == "__main__":
    sys.exit(main())
