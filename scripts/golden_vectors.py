"""Golden vectors for lib/potatoq: what the installed potatoq really does.

Run with the project's venv (`npm run golden`); prints JSON to stdout. Every expectation
comes from potatoq's own serialization.loads/dumps and Message, never from our code.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import json
import math
import os
import sys
import uuid
from importlib.metadata import version

# A fixed hash seed keeps sets of strings in the same order run after run (stable diffs).
if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])

from potatoq import serialization
from potatoq.message import Message

T = '{"__potatoq__":"%s","v":%s}'


def outcome(fn):
    try:
        return {"ok": True, "value": fn()}
    except BaseException as exc:  # noqa: BLE001 - we record whatever potatoq raises
        return {"ok": False, "type": type(exc).__name__, "error": str(exc)}


def q(s: str) -> str:
    return json.dumps(s)


ROUNDTRIP = [
    # numbers
    "1.0", "0.1", "1e16", "1e-5", "1.5e300", "1E400", "-1E400", "-0.0", "-0", "0", "123.456e-10", "5e-324",
    "1.7976931348623157e308", "100000000000000000000.0", "1e15", "0.0001", "0.00001", "2.5e-7", "-1e22", "1e21",
    "123456789.123456789", "0.30000000000000004", "1E+2", "1e-7", "9007199254740993", "9007199254740993.0",
    str(2**80), str(-(2**70)), "12345678901234567890123", "[NaN,Infinity,-Infinity]", "NaN", "-Infinity",
    # strings
    q("😀 emoji"), q("שלום RTL"), q("\u2028\u2029"), '"\\u0000\\u001f\\u007f\\u001b"', '"\\\\\\/\\b\\f\\n\\r\\t\\""',
    '"\\ud83d\\ude00"', '"\\ud800"', '"\\udc00\\ud800x"', q("<script>alert(1)</script>"), q("javascript:alert(1)"),
    q("\x7f\u0085\u00a0\ufeff"), '"\\u00e9\\u00E9"',
    # containers
    '{"a":1,"b":2,"a":3}', '{ "a" : [ 1 , 2 ] , "b" : { } }', "[]", "{}", '[[[[]]]]', ' \t\n\r[1]\r\n',
    # tags, valid
    T % ("datetime", q("2026-01-01T10:00:00")), T % ("datetime", q("2026-01-01T10:00:00+00:00")),
    T % ("datetime", q("2026-01-01T10:00:00Z")), T % ("datetime", q("2026-01-01T10:00:00.5+05:30")),
    T % ("datetime", q("2026-06-30T23:59:59.999999-08:00")), T % ("datetime", q("2026-01-01")),
    T % ("date", q("2026-02-28")), T % ("time", q("10:20:30.000001")), T % ("time", q("10:20+01:00")),
    T % ("timedelta", "1.5"), T % ("timedelta", "86400"), T % ("timedelta", "-0.000001"), T % ("timedelta", "0.1234567"),
    T % ("uuid", q("12345678-1234-5678-1234-567812345678")), T % ("uuid", q("{12345678123456781234567812345678}")),
    T % ("decimal", q("1.10")), T % ("decimal", q("-0")), T % ("decimal", q("1E+3")), T % ("decimal", q("0.0000001")),
    T % ("bytes", q("aGVsbG8=")), T % ("bytes", q("")), T % ("set", "[1,2,3]"), T % ("set", "[]"), T % ("set", '["a"]'),
    # nested tags and tags in containers
    '[%s,{"k":%s}]' % (T % ("uuid", q("12345678123456781234567812345678")), T % ("date", q("2026-01-01"))),
    T % ("set", "[%s,%s]" % (T % ("decimal", q("1.5")), T % ("date", q("2026-01-01")))),
    T % ("set", "[1,1.0,true,2]"), T % ("set", "[NaN,NaN]"), T % ("set", "[1,%s]" % (T % ("decimal", q("1.00")))),
    T % ("set", q("abca")), T % ("set", '{"x":1}'), T % ("set", T % ("bytes", q("AAE="))), T % ("set", T % ("set", "[1]")),
    # malformed, unknown, legacy, not tags
    T % ("uuid", q("not-a-uuid")), T % ("datetime", "5"), T % ("date", q("2026-02-30")), T % ("decimal", q("1.2.3")),
    T % ("bytes", q("abc")), T % ("bytes", q("é")), T % ("set", "5"), T % ("set", "[[1]]"), T % ("set", "[{}]"),
    T % ("timedelta", q("1")), T % ("timedelta", "NaN"), T % ("timedelta", "Infinity"), T % ("timedelta", "1e20"),
    T % ("uuid", "null"), T % ("newtag", "1"), T % ("DATETIME", q("2026-01-01")), T % ("datetime", "null"),
    '{"__potatoq__":"uuid","v":"12345678123456781234567812345678","x":1}', '{"__type__":"uuid","__value__":"x"}',
    '{"v":1,"__potatoq__":"date","v":"2026-01-01"}', '{"__potatoq__":1,"v":2}', T % ("set", T % ("decimal", q("sNaN"))),
    # errors
    "", " ", "x", "[", "{", '{"a"', '{"a":', '{"a":1', '{"a":1,}', "[1,]", "[1 2]", '"abc', '"a\\x"', '"\\u12"',
    '"\\u12', '"\\u123"', '"a\nb"', "1 2", "nul", "-", "-a", "01", "1.", "1e", "1e+", "\ufeff{}", "{1:2}", "NaN1",
    "[1,\n  2,\n  x]", '"😀" x', '["😀",\n"😀😀", !]', "[-]", "[1.]", "tru", '{"a" 1}', '{"a":1 "b":2}',
    "1" * 4301, "-" + "1" * 4400,
    # tags that make loads itself raise
    T % ("uuid", "1"), T % ("uuid", "[1]"), T % ("uuid", "true"), T % ("uuid", '{"a":1}'),
    T % ("uuid", T % ("decimal", q("1"))), T % ("uuid", T % ("timedelta", "1")), T % ("uuid", T % ("uuid", q("0" * 32))),
    T % ("uuid", T % ("datetime", q("2026-01-01"))), '{"__potatoq__":[1],"v":1}', '{"__potatoq__":{},"v":1}',
]

DATETIMES = [
    "2026-01-01T10:00", "2026-01-01 10:00:00", "2026-01-01X10:00", "20260101T100000", "20260101T1000", "2026-01-01T10",
    "2026-01-01T10:00:00,5", "2026-01-01T10:00:00.1234567", "2026-01-01T10:00:00.123456789+01:00",
    "2026-01-01T10:00:00.1234567abc+01:00", "2026-01-01T10:00.5", "2026-01-01T1000", "2026-01-01T10:0", "2026-01-01T",
    "2026-01-01T10:00:00+0530", "2026-01-01T10:00:00+05", "2026-01-01T10:00:00+05:30:15", "2026-01-01T10:00:00+05:30:15.5",
    "2026-01-01T10:00:00-00:00", "2026-01-01T10:00:00+24:00", "2026-01-01T10:00:00+23:59", "2026-01-01T10:00:00+05:75",
    "2026-01-01T10:00:00Z ", "2026-01-01T10:00:00ZZ", "2026-01-01T24:00:00", "2026-01-01T10:60", "2026-01-01T10:00:60",
    "2026-W01", "2026-W01-1", "2026W017", "2026-W53-1", "2020-W53-7", "2026-W01T10:00", "2026-W011", "2026W01-1", "2026-01",
    "2026-001", "0000-01-01", "9999-12-31T23:59:59.999999", "10000-01-01", "2026-1-1", "２０２６-01-01", "2026-01-01T１0:00",
    "2026-01-01\u00e910:00", "2026-01-01\ud80010:00", "2026-01-01T10:00:00.+01:00", "2026-01-01T10:00:00.", "2026-01-01T10:00:00+",
    "2026-01-01T10:00:00+1", "2026-01-01T10:00:00+123", " 2026-01-01", "2026-01-01 ", "2026-01-01T10:00:00.0Z", "2024-02-29T00:00",
    "2023-02-29T00:00", "2026-01-01t10:00", "2026-01-01T10:00:00-05:00", "2026-01-01T10:00:00+00:00:00.000001",
]
DATES = ["2026-01-01", "20260101", "2026-W01", "2026W01", "2026W011", "2026-W01-7", "2026-01", "2026-1-01", "2026-13-01",
         "0001-01-01", "2026-01-01T00:00", "2026-W00", "2026-W01-0", "2026-W01-8", "2026-W1-1"]
TIMES = ["10:20", "1020", "10", "T10:20", "10:20:30", "102030", "10:20:30.5", "10:20:30,123", "10:20Z", "10:20:30-0130",
         "10:20:30+01:30:00.5", "1", "", "T", "24:00", "10:2030", "1020:30", "10:20:30.1234567", "10:20:30Z1",
         "10:20:30.123456+00:00", "10:20:30 ", "10:20.5", "T10:20:30+05"]
DECIMALS = ['"1"', '" 1.5 "', '"1_000"', '"_1"', '"1__0"', '"1_"', '"1_.5"', '"-1.50E-3"', '"+1"', '".5"', '"5."', '"1e1000000"',
            '"inf"', '"-Infinity"', '"nan"', '"NaN0012"', '"sNaN"', '"-snan7"', '"0E-10"', '"0.000000"', '"123456789e-20"',
            '"1e-7"', '"0.000001"', '"1E+2"', '"١٢"', '"1 "', '""', '"abc"', "1", "-0", "true", "1.5", "0.1", "NaN", "-Infinity",
            "-0.0", "1e16", "null", "[0,[1,2],-1]", '{"a":1}', '"\\u00a01"', '"\\ufeff1"', '"1e999999999999999999"', '"1e1000000000000000000"', '"1e-999999999999999999"', '"1e-1000000000000000100"', '"123e999999999999999998"', '"0e1000000000000000000"', '"0e-2000000000000000000"', '"1e-1999999999999999997"', '"1e-1999999999999999998"', '"12e-1000000000000000016"', '"\\u001c1\\u0085"', '"1\\u2003"']
UUIDS = ['"12345678123456781234567812345678"', '"urn:uuid:12345678-1234-5678-1234-567812345678"',
         '"{{12345678-1234-5678-1234-567812345678}}"', '"0x345678123456781234567812345678"',
         '"+2345678123456781234567812345678"', '" 2345678123456781234567812345678"', '"1_345678123456781234567812345678"',
         '"ABCDEF78123456781234567812345678"', '"1234567812345678123456781234567"', '"g2345678123456781234567812345678"',
         '"１2345678123456781234567812345678"', '"-12345678123456781234567812345678-"', '"1234567812345678123456781234567_"',
         '"\\ufeff2345678123456781234567812345678"', '"\\u001c2345678123456781234567812345678"']
BYTES = ['"aGVsbG8="', '"aGVsbG8"', '"aGVsbA=="', '"aGVsbA="', '"aGVsbA"', '"a"', '"ab=="', '"a=b="', '"aGVs\\nbG8="',
         '"aGVs bG8="', '"aGVsbG8=garbage"', '"aGVsbA==QUJD"', '"-_-_"', '"////"', '"===="', '"aG=VsbG8="', '"QUJD"', '"5"',
         "5", "null", "[1]"]
TIMEDELTAS = ["0", "1", "-1", "1.5", "0.5e-6", "1.5e-6", "2.5e-6", "-2.5e-6", "0.0000005", "86399.9999995", "1e-7",
              "999999999", "86400000000000", "86399999999999", "-86399999999999.999999", "-86400000000000", "86400000000000.5",
              "true", "false", "0.1", "123456.7891234", "1e15", "3.14159e10", "null", '"1"', "[1]"]
SETS = ["[1,2,3]", "[3,2,1]", "[8,16,0,1,24,9]", "[-1,-2,2305843009213693951,2305843009213693952,18446744073709551616]",
        "[%s]" % ",".join(str(i * 37 % 1000) for i in range(200)), "[%s]" % ",".join(str(7 ** i) for i in range(60)),
        "[5,4.0,3,true,2.0,%s]" % (T % ("decimal", q("7.000"))), "[1e300,-1e300,1e20]", "[0.5,1.5,2.25,-0.1,0.1,3.14159,1e-300,Infinity,-Infinity,2.5]",
        "[%s,%s,%s,0.3]" % (T % ("decimal", q("0.1")), T % ("decimal", q("-7.25")), T % ("decimal", q("1E+30"))), "[]", '"ab"', '{"a":1,"b":2}', "[1,[2]]", "[null]", "[true,1]", "[0,false,-0,0.0]",
        "[1.5,%s]" % (T % ("decimal", q("1.5"))), "[0.1,%s]" % (T % ("decimal", q("0.1"))), "5", "null", "[{}]",
        "[%s]" % (T % ("set", "[1]")), "[%s,%s]" % (T % ("uuid", q("0" * 32)), T % ("uuid", q("0" * 32)))]

tag_cases = [T % ("datetime", q(s)) for s in DATETIMES]
tag_cases += [T % ("date", q(s)) for s in DATES] + [T % ("time", q(s)) for s in TIMES]
tag_cases += [T % ("decimal", s) for s in DECIMALS] + [T % ("uuid", s) for s in UUIDS]
tag_cases += [T % ("bytes", s) for s in BYTES] + [T % ("timedelta", s) for s in TIMEDELTAS]
tag_cases += [T % ("set", s) for s in SETS]


def hash_is_plain(x) -> bool:
    # Members whose hash lib/potatoq/pyset.ts reproduces: numbers other than NaN.
    if isinstance(x, (bool, int)):
        return True
    if isinstance(x, float):
        return not math.isnan(x)
    if isinstance(x, decimal.Decimal):
        return not x.is_nan()
    return False


def has_str_set(v) -> bool:
    # Sets of strings, dates… iterate in hash order, which Python randomises per process.
    if isinstance(v, (set, frozenset)):
        return len(v) > 1 and not all(hash_is_plain(x) for x in v)
    if isinstance(v, (list, tuple)):
        return any(has_str_set(x) for x in v)
    if isinstance(v, dict):
        return any(has_str_set(x) for x in v.values())
    return False


def rt(text):
    res = {"input": text, **outcome(lambda: serialization.dumps(serialization.loads(text)))}
    if res["ok"] and has_str_set(serialization.loads(text)):
        res["unordered"] = True
    return res


def py_type(text):
    try:
        return type(serialization.loads(text)).__name__
    except BaseException:  # noqa: BLE001
        return None


M = '{"task":"t","id":"i1","enqueued_at":1.5%s}'
DECODE = [
    "[]", "[1,2,{}]", "[1,2,3]", '[[1],{"a":1},{"callbacks":null,"errbacks":null,"chain":null,"chord":null}]',
    '{"body":"x","headers":{}}', '{"body":"W1syLDNdLHt9LHt9XQ==","headers":{"task":"tasks.add","id":"c1"},'
    '"properties":{"body_encoding":"base64"},"content-type":"application/json"}',
    '{"task":"t"}', '{"id":"x"}', '"str"', "1", "1.5", "true", "null", "{}", T % ("uuid", q("0" * 32)),
    T % ("set", "[1]"), T % ("decimal", q("1")), T % ("timedelta", "1"), T % ("bytes", q("")), T % ("date", q("2026-01-01")),
    T % ("datetime", q("2026-01-01")), T % ("time", q("10:00")), M % ',"v":2', M % ',"v":"1"', M % ',"v":true',
    M % ',"v":false', M % ',"v":1.0', M % ',"v":null', M % ',"v":[1,"a"]', M % ',"v":{"a":1}', M % (',"v":%d' % 2**80),
    M % ',"v":0', M % ',"v":-1', M % ',"v":NaN', M % ',"v":-Infinity', M % (',"v":%s' % (T % ("decimal", q("2")))),
    '{"task":"t","v":2}', '{"task":"t","id":null,"v":2}', '{"task":"t","id":5,"v":2}',
    '{"task":"t","id":%s,"v":2}' % (T % ("datetime", q("2026-01-01T10:00:00+00:00"))),
    '{"task":"t","id":["x","y\'"],"v":3}', M % ',"extra":1,"priority":"high"', M % ',"args":%s' % (T % ("uuid", "1")),
    "", "nope", '{"task":"t","id":"x"', '[{"__potatoq__":"uuid","v":1}, !!!', '[{"__potatoq__":"uuid","v":"x"}, !!!',
    '[{"__potatoq__":"uuid","v":{"__potatoq__":"uuid","v":"%s"}}, %s' % ("0" * 32, "[" * 1200), "[" * 1000 + "]" * 1000,
]
DECODE_BYTES = [b"\xff", b"\xe2\x82", b"\xe2\x82(", b"\xe2(", b"\xed\xa0\x80", b'{"a":"\xf0\x90\x80', b"\xc0\xaf", b"\xf5",
                b"\xf4\x90\x80\x80", b"\xe0\x80\x80", b'{"task":"t","id":"\xc3\xa9","enqueued_at":1.5}', b"\xef\xbb\xbf{}"]

FULL = {
    "task": "app.tasks.full", "args": [1, "x", dt.datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=dt.timezone.utc)],
    "kwargs": {"d": decimal.Decimal("1.10"), "u": uuid.UUID(int=2**127), "b": b"\x00\xff", "s": {3},
               "td": dt.timedelta(days=1, microseconds=7), "nan": float("nan"), "big": 2**80, "naive": dt.datetime(2026, 1, 1),
               "date": dt.date(2026, 1, 1), "time": dt.time(1, 2, 3, tzinfo=dt.timezone(dt.timedelta(hours=-5)))},
    "id": "00000000-0000-4000-8000-000000000001", "queue": "high", "priority": 7, "eta": 1767225600.25,
    "expires": 1767229200.5, "retries": 2, "root_id": "r", "parent_id": "p", "group_id": "g", "group_index": 3,
    "options": {"time_limit": 30}, "link": [{"task": "cb", "args": []}], "link_error": [{"task": "eb"}],
    "chord": {"callback": {"task": "c"}, "size": 2}, "ignore_result": True, "headers": {"x-trace": "abc"},
    "enqueued_at": 1767225599.123456, "v": 1,
}
REENCODE = [
    Message(**FULL).encode(),
    Message(task="t", args=[1], id="bare", enqueued_at=1.0).encode(),
    M % ',"eta":1767225600.5,"priority":0.0,"retries":false,"ignore_result":0,"unknown":1,"kwargs":{},"queue":"default"',
    M % ',"priority":"high","retries":null,"chord":null,"link":[],"headers":{"a":1},"v":true',
    M % ',"args":[%s,%s,1e16,-0,NaN]' % (T % ("decimal", q("1.0")), T % ("datetime", q("20260101T1000Z"))),
    M % ',"args":[%s,%s,%s]' % (T % ("uuid", q("bad")), T % ("newtag", "1"), '{"__type__":"x","__value__":1}'),
    '{"v":0,"enqueued_at":2,"id":"i","task":"t","queue":"q","eta":null,"expires":5}',
    M % ',"priority":%s' % (T % ("decimal", q("0.00"))), M % ',"priority":%s' % (T % ("decimal", q("sNaN"))),
    M % ',"v":2', '[1,2,{}]', M % ',"kwargs":{"a":1,"a":2}', M % ',"args":[%s]' % (T % ("set", "[1,1,2]")),
]

BUILD = [
    {"task": "t.add", "queue": "default", "args": "[1, 2]", "kwargs": "{}", "headers": "{}", "priority": 0, "eta": None,
     "expires": None, "id": "00000000-0000-4000-8000-00000000000a", "now": 1767225600.123456},
    {"task": "t.add", "queue": "high", "args": '[{"__potatoq__":"uuid","v":"x"}, 1.0, 2e16, NaN]',
     "kwargs": '{"when": {"__potatoq__": "datetime", "v": "2026-01-01T00:00:00Z"}, "n": 100000000000000000000001}',
     "headers": '{"h": 1}', "priority": 5, "eta": 1767225660.5, "expires": 1767229200.0,
     "id": "00000000-0000-4000-8000-00000000000b", "now": 1767225600.0},
]


def build(case):
    # Task.build_message with potatoq call's json.loads'ed args: root_id = id, enqueued_at = now.
    m = Message(task=case["task"], args=json.loads(case["args"]), kwargs=json.loads(case["kwargs"]), id=case["id"],
                queue=case["queue"], priority=int(case["priority"]), eta=case["eta"], expires=case["expires"],
                root_id=case["id"], headers=json.loads(case["headers"]), enqueued_at=case["now"])
    return {**case, "wire": m.encode()}


def decode(data):
    def run():
        m = Message.decode(data)
        return m.encode()
    return outcome(run)


def reencode(text):
    def run():
        m = Message.decode(text)
        m.eta = None
        return m.encode()
    return {"input": text, **outcome(run)}


def max_depth():
    n = 900
    while True:
        try:
            serialization.loads("[" * (n + 1) + "]" * (n + 1))
        except RecursionError:
            return n
        n += 1


REASONS = [
    "", "   ", "boom", "Traceback (most recent call last):\n  File \"x\", line 1\nValueError: boom\n",
    "x" * 70, "y" * 71, "line1\r\nline2\r\n", "a\u2028b", "😀" * 80, "\ufeffx\ufeff", "\x1cx\x85", "a\x0bb\x1dc", "ends with blank\n\n\n", None,
]


def reason_cli(reason):
    # cli.py dead list, verbatim logic
    r = (reason or "").strip().splitlines()
    why = r[-1] if r else ""
    return why if len(why) <= 70 else why[:69] + "…"


out = {
    "potatoq_version": version("potatoq"),
    "python": sys.version.split()[0],
    "max_json_depth_ok": max_depth(),
    "roundtrip": [rt(t) for t in ROUNDTRIP],
    "tags": [{**rt(t), "pytype": py_type(t)} for t in tag_cases],
    "decode": [{"input": t, **decode(t)} for t in DECODE]
    + [{"input_b64": base64.b64encode(b).decode(), **decode(b)} for b in DECODE_BYTES],
    "reencode": [reencode(t) for t in REENCODE],
    "build": [build(c) for c in BUILD],
    "reasons": [{"input": r, "summary": reason_cli(r)} for r in REASONS],
}
json.dump(out, sys.stdout, ensure_ascii=True, indent=1)
sys.stdout.write("\n")
