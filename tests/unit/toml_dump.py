#!/usr/bin/env python3
# tests/unit/toml_dump.py FILE -- test_toml.c's cross-check: read each
# TOML document of FILE with Python's tomllib (3.11+) and print one line
# per document: its value in the dump form test_toml.c writes (see
# dump() there), or "!" and the error when tomllib refuses it.
#
# FILE holds the documents one after the other, each as a decimal byte
# count, a newline, then that many bytes.
import datetime
import sys
import tomllib


def string(s):
    out = ['"']
    for ch in s:
        if ch == '"' or ch == '\\':
            out.append('\\' + ch)
        elif ch == '\n':
            out.append('\\n')
        elif ch == '\t':
            out.append('\\t')
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append('\\u%04X' % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return ''.join(out)


def flt(x):
    if x != x:
        return 'nan'
    if x in (float('inf'), float('-inf')):
        return 'inf' if x > 0 else '-inf'
    for prec in range(1, 18):
        s = '%.*g' % (prec, x)
        if float(s) == x:
            break
    if not any(c in s for c in '.en'):
        s += '.0'
    return s


def frac(us):
    return ('.%06d' % us).rstrip('0') if us else ''


def clock(t):
    return '%02d:%02d:%02d%s' % (t.hour, t.minute, t.second,
                                 frac(t.microsecond))


def dump(v):
    if isinstance(v, dict):
        return '{' + ', '.join(string(k) + ': ' + dump(x)
                               for k, x in v.items()) + '}'
    if isinstance(v, list):
        return '[' + ', '.join(dump(x) for x in v) + ']'
    if isinstance(v, str):
        return string(v)
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return flt(v)
    if isinstance(v, datetime.datetime):
        s = '%04d-%02d-%02dT%s' % (v.year, v.month, v.day, clock(v))
        if v.tzinfo is not None:
            off = int(v.utcoffset().total_seconds()) // 60
            if off == 0:
                s += 'Z'
            else:
                sign = '-' if off < 0 else '+'
                s += '%s%02d:%02d' % (sign, abs(off) // 60, abs(off) % 60)
        return s
    if isinstance(v, datetime.date):
        return '%04d-%02d-%02d' % (v.year, v.month, v.day)
    if isinstance(v, datetime.time):
        return clock(v)
    raise TypeError(type(v))


def main():
    data = open(sys.argv[1], 'rb').read()
    pos = 0
    while pos < len(data):
        nl = data.index(b'\n', pos)
        n = int(data[pos:nl])
        doc = data[nl + 1:nl + 1 + n]
        pos = nl + 1 + n
        try:
            line = dump(tomllib.loads(doc.decode('utf-8')))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError,
                ValueError) as e:
            line = '!' + str(e).replace('\n', ' ')
        sys.stdout.write(line + '\n')


main()
