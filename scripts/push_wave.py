#!/usr/bin/env python
"""Time a live round's push waves against a running server: from a teacher's start, reveal or next to each
student's screen, and the server's CPU per stream (and, with --answer, per answer).

A teacher registers and creates a round; N students join and open their event streams (raw sockets, one event
loop); then the teacher starts, reveals and goes to the next card twice, and for each change the script waits until
every stream has sent its new view. With --rounds R, R teachers each run a round of N students and press each
control at the same moment (as 25 classes starting together do). Prints the control's reply time, when the first, the 10th, 50th and 95th
percentile and the last screen had it, and the CPU the server's processes (and their children: give gunicorn's
master and the postmaster) spent meanwhile, read from /proc. With --answer every student answers each card instead
of the teacher revealing it, one after another, so that the server's CPU per answer is an answer's alone (the last
answer reveals the card, and that wave is timed from it).

    python scripts/push_wave.py --url http://127.0.0.1:8000 --students 400 --server-pids 1234,5678
    python scripts/push_wave.py --url http://127.0.0.1:8000 --rounds 25 --students 40 --server-pids 1234,5678
"""

import argparse
import asyncio
import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from profile_way_in import JOIN_CODE, csrf_of

META_CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')
ACTIONS = ("start", "reveal", "next", "reveal", "next")
ANSWERING = ("start", "answers", "next", "answers", "next")


def tree_cpu_ms(pids):
    """Return the CPU milliseconds spent by `pids` and all their descendants."""
    seen, todo, ticks = set(), list(pids), 0
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
            with open(f"/proc/{pid}/task/{pid}/children") as children:
                todo += [int(child) for child in children.read().split()]
        except OSError:
            continue  # ended meanwhile
    return ticks * 1000 / os.sysconf("SC_CLK_TCK")


def cores_busy_ms(cores):
    """Return the CPU milliseconds the machine's `cores` spent busy (all but idle and iowait), read from /proc/stat:
    it counts the database's connections that close meanwhile, which leave a process tree with their CPU."""
    busy = 0
    with open("/proc/stat") as stat:
        for line in stat:
            name, *ticks = line.split()
            if name.startswith("cpu") and name[3:] in cores:
                busy += sum(map(int, ticks[:8])) - int(ticks[3]) - int(ticks[4])
    return busy * 1000 / os.sysconf("SC_CLK_TCK")


def expect(response, *statuses):
    """Return `response`, or stop with what went wrong."""
    if response.status_code not in statuses:
        raise SystemExit(f"{response.request.method} {response.url}: {response.status_code}\n{response.text[:300]}")
    return response


def teacher_round(base, cards):
    """Register a teacher and create a round; return their session, the round page's URL and the join code."""
    teacher = requests.Session()
    token = csrf_of(expect(teacher.get(f"{base}/teach/register"), 200).text)
    email, password = f"wave-{time.time_ns()}@example.org", "correct horse battery 1"
    expect(teacher.post(f"{base}/teach/register", data={"name": "Wave", "email": email, "password": password,
                        "confirm": password, "csrf_token": token}, allow_redirects=False), 302)
    token = csrf_of(expect(teacher.get(f"{base}/teach/login"), 200).text)
    expect(teacher.post(f"{base}/teach/login", data={"email": email, "password": password, "csrf_token": token},
                        allow_redirects=False), 302)
    token = csrf_of(expect(teacher.get(f"{base}/teach/rounds/new"), 200).text)
    form = {"title": "Wave", "format": "class_line", "deck": "dinosaurs", "characteristic": "mass", "choice": "all",
            "count": str(cards), "hand_size": "4", "turn_seconds": "0", "leaderboard": "every", "teams": "2",
            "team_mode": "captain", "csrf_token": token}
    url = base + expect(teacher.post(f"{base}/teach/rounds/new", data=form, allow_redirects=False),
                        302).headers["Location"]
    return teacher, url, JOIN_CODE.search(expect(teacher.get(url), 200).text).group(1)


def join(base, code, number):
    """Join the round as a student; return their session (its CSRF token kept as .token) and cookie header."""
    student = requests.Session()
    student.token = csrf_of(expect(student.get(f"{base}/join?code={code}"), 200).text)
    expect(student.post(f"{base}/join", data={"code": code, "name": f"Wave{number}", "csrf_token": student.token},
                        allow_redirects=False), 302)
    return student, "; ".join(f"{name}={value}" for name, value in student.cookies.items())


def answer_all(base, code, students):
    """Have every student place the card in the first gap, one after another, as live.js posts it; return the
    slowest reply's seconds and the median's."""
    took = []
    for student in students:
        began = time.perf_counter()
        expect(student.post(f"{base}/r/{code}/answer", data={"gap": "0", "csrf_token": student.token},
                            headers={"X-Live-Panel": "1"}, allow_redirects=False), 200)
        took.append(time.perf_counter() - began)
    took.sort()
    return took[-1], took[len(took) // 2]


async def open_stream(host, port, code, cookie):
    """Open a student's event stream and read up to its first event; return its reader and writer."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /r/{code}/events HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n"
                 "Accept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    seen = b""
    while b"event:" not in seen:
        seen += await reader.read(65536)
    return reader, writer


async def next_view(reader):
    """Wait for the stream's next view; return when it came."""
    seen = b""
    while b"event: view" not in seen:
        chunk = await reader.read(65536)
        if not chunk:
            raise SystemExit("a stream ended")
        seen += chunk
    return time.perf_counter()


def control(teacher, url, action, token):
    """Press one of the teacher's controls, as their page does."""
    expect(teacher.post(f"{url}/control", data={"action": action, "csrf_token": token}, allow_redirects=False,
                        headers={"X-Live-Panel": "1", "Accept": "application/json"}), 200, 204, 302)


def at(times, share):
    return times[min(len(times) - 1, int(share * len(times)))] * 1000


def press_all(teachers, action, tokens):
    """Have every teacher press `action` at once; return the seconds from the presses to each reply. (Their pages
    stay: a start, a pause or a resume shows the page's other parts without loading it again.)"""
    def press(teacher_url_token):
        (teacher, url), token = teacher_url_token
        began = time.perf_counter()
        control(teacher, url, action, token)
        return time.perf_counter() - began
    with ThreadPoolExecutor(len(teachers)) as pool:
        return list(pool.map(press, zip(teachers, tokens)))


async def waves(args):
    base = args.url.rstrip("/")
    parts = urlsplit(base)
    made = [teacher_round(base, args.cards) for _ in range(args.rounds)]
    teachers = [(teacher, url) for teacher, url, _code in made]
    classes = [[join(base, code, number) for number in range(args.students)] for _teacher, _url, code in made]
    students = [student for _teacher, _url, _code in made[:1] for student, _cookie in classes[0]]
    code = made[0][2]
    streams = [await open_stream(parts.hostname, parts.port or 80, round_code, cookie)
               for (_teacher, _url, round_code), joined in zip(made, classes) for _student, cookie in joined]
    pids = [int(pid) for pid in args.server_pids.split(",") if pid]
    cores = [core for core in args.server_cores.split(",") if core]
    server_cpu = partial(cores_busy_ms, cores) if cores else partial(tree_cpu_ms, pids)
    loop = asyncio.get_running_loop()
    print(f"{len(streams)} students' streams open on {base} ({args.rounds} round(s) of {args.students})")
    for action in ANSWERING if args.answer else ACTIONS:
        tokens = [META_CSRF.search(expect(teacher.get(url), 200).text).group(1) for teacher, url in teachers]
        await asyncio.sleep(args.pause)
        if action == "answers":
            *others, last = students
            cpu = [tree_cpu_ms([pid]) for pid in pids]
            slowest, median = await loop.run_in_executor(None, answer_all, base, code, others)
            each = [(tree_cpu_ms([pid]) - before) / len(others) for pid, before in zip(pids, cpu)]
            print(f"answers: {len(others)} one after another, median reply {median * 1000:.1f} ms, slowest "
                  f"{slowest * 1000:.0f} ms; server CPU per answer {sum(each):.2f} ms (by server PID: "
                  f"{', '.join(f'{pid} {ms:.2f}' for pid, ms in zip(pids, each))})")
            action, press = "reveal (the last answer)", partial(answer_all, base, code, [last])
        else:
            press = partial(press_all, teachers, action, tokens)
        waiting = [asyncio.create_task(next_view(reader)) for reader, _writer in streams]
        cpu, began = server_cpu(), time.perf_counter()
        replies = await loop.run_in_executor(None, press)
        replied = max(replies) if isinstance(replies, list) else time.perf_counter() - began
        times = sorted(moment - began for moment in await asyncio.gather(*waiting))
        await asyncio.sleep(0.5)  # what the wave's last writes cost is counted
        spent = server_cpu() - cpu if pids or cores else float("nan")
        print(f"{action:<7} replied in {replied * 1000:.0f} ms; screens: first {at(times, 0):.0f}, "
              f"p10 {at(times, 0.1):.0f}, p50 {at(times, 0.5):.0f}, p95 {at(times, 0.95):.0f}, last "
              f"{times[-1] * 1000:.0f} ms; server CPU {spent:.0f} ms ({spent / len(streams):.2f} ms per stream, "
              f"{spent / args.rounds:.0f} ms per round)")
    for _reader, writer in streams:
        writer.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="a running server that pushes (gevent)")
    parser.add_argument("--students", type=int, default=400, help="students per round")
    parser.add_argument("--rounds", type=int, default=1, help="rounds side by side, their teachers pressing at once")
    parser.add_argument("--cards", type=int, default=5)
    parser.add_argument("--server-pids", default="", help="comma-separated PIDs whose CPU (with children) is counted")
    parser.add_argument("--server-cores", default="",
                        help="comma-separated cores the server and its database alone run on (taskset): their busy time "
                             "is counted instead of --server-pids' CPU")
    parser.add_argument("--pause", type=float, default=1.5, help="seconds of quiet before each change")
    parser.add_argument("--answer", action="store_true",
                        help="every student answers each card (the CPU per answer), instead of the teacher revealing")
    asyncio.run(waves(parser.parse_args()))


if __name__ == "__main__":
    main()
