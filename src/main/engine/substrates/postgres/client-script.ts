/**
 * A small PostgreSQL wire-protocol client (Python standard library only, run with
 * `python3 -c` inside the item's container), so that what reaches the server is only SQL and
 * copy data: no `psql`, whose backslash commands (`\!`, `\c`, `\copy`) would be a shell and a
 * second connection. Three modes:
 *
 * - `query SOCKET ROLE DATABASE DEADLINE_MS MAX_ROWS MAX_BYTES SQL`: the judge's one statement,
 *   through the extended protocol (Parse refuses a second statement, so `SET ...; SELECT ...`
 *   cannot run). At the deadline it sends a cancel request from outside the session, and if
 *   the statement is still running a moment later (PL/pgSQL can catch a cancel), ends the
 *   backend with `pg_terminate_backend` from a second connection. Prints one JSON object.
 * - `load SOCKET ROLE DATABASE PLAN`: runs a dump plan (see dump-plan.ts) statement by
 *   statement with the simple protocol, feeding COPY ... FROM stdin its data.
 * - `kill SOCKET PID ROLE`: as the superuser, on the `postgres` database, ends `ROLE`'s
 *   backend `PID` (or all of its backends when PID is 0).
 *
 * It authenticates by peer only: a server asking for a password is refused.
 */
export const pgClientScript = String.raw`
import json, os, socket, struct, sys, time

class Fail(Exception):
    pass

class Timeout(Exception):
    pass

def message(kind, body):
    return kind + struct.pack('!i', len(body) + 4) + body

def cstring(text):
    data = text.encode('utf-8')
    if b'\0' in data:
        raise Fail('the text holds a NUL character, which PostgreSQL cannot take')
    return data + b'\0'

def error_text(body):
    fields = {}
    for part in body.split(b'\0'):
        if part:
            fields[part[:1]] = part[1:].decode('utf-8', 'replace')
    text = '%s: %s' % (fields.get(b'S', 'ERROR'), fields.get(b'M', 'unknown error'))
    if b'D' in fields:
        text += '\nDETAIL: ' + fields[b'D']
    if b'H' in fields:
        text += '\nHINT: ' + fields[b'H']
    return text

MAX_MESSAGE = 64 * 1024 * 1024

class Connection:
    def __init__(self, path, role, database, deadline, options=''):
        self.path = path
        self.deadline = deadline
        self.buf = bytearray()
        self.pos = 0
        self.pid = 0
        self.key = 0
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(max(0.05, deadline - time.monotonic()))
        self.sock.connect(path)
        params = ['user', role, 'database', database, 'client_encoding', 'UTF8',
                  'application_name', 'cuelab']
        if options:
            params += ['options', options]
        body = struct.pack('!i', 196608) + b''.join(cstring(p) for p in params) + b'\0'
        self.sock.sendall(struct.pack('!i', len(body) + 4) + body)
        while True:
            kind, data = self.read()
            if kind == b'R':
                if struct.unpack('!i', data[:4])[0] != 0:
                    raise Fail('the server asked for a password; CueLab connects by peer only')
            elif kind == b'K':
                self.pid, self.key = struct.unpack('!ii', data[:8])
            elif kind == b'E':
                raise Fail(error_text(data))
            elif kind == b'Z':
                return

    def send(self, data):
        self.sock.settimeout(max(0.05, self.deadline - time.monotonic()))
        try:
            self.sock.sendall(data)
        except socket.timeout:
            raise Timeout()

    def read(self):
        while True:
            available = len(self.buf) - self.pos
            if available >= 5:
                size = struct.unpack_from('!i', self.buf, self.pos + 1)[0]
                if size < 4 or size > MAX_MESSAGE:
                    raise Fail('the server sent a message of %d bytes' % size)
                if available >= size + 1:
                    start = self.pos
                    self.pos += size + 1
                    return bytes(self.buf[start:start + 1]), bytes(self.buf[start + 5:self.pos])
            if self.pos:
                del self.buf[:self.pos]
                self.pos = 0
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise Timeout()
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(1 << 16)
            except socket.timeout:
                raise Timeout()
            if not chunk:
                raise Fail('the server closed the connection')
            self.buf += chunk

    def simple(self, sql):
        self.send(message(b'Q', cstring(sql)))
        error = None
        while True:
            kind, data = self.read()
            if kind == b'E':
                error = error_text(data)
            elif kind == b'Z':
                if error:
                    raise Fail(error)
                return

def cancel(path, pid, key):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(2)
    sock.connect(path)
    sock.sendall(struct.pack('!iiii', 16, 80877102, pid, key))
    sock.close()

def end_backend(conn, role, database):
    # Outside the session: the statement cannot SET its way past either step.
    cancel(conn.path, conn.pid, conn.key)
    conn.deadline = time.monotonic() + 1.0
    try:
        while conn.read()[0] != b'Z':
            pass
        return
    except (Timeout, Fail):
        pass
    other = Connection(conn.path, role, database, time.monotonic() + 3.0)
    other.simple('SELECT pg_catalog.pg_terminate_backend(%d, 2000)' % conn.pid)

def column_names(data):
    count = struct.unpack('!h', data[:2])[0]
    names, offset = [], 2
    for _ in range(count):
        end = data.index(b'\0', offset)
        names.append(data[offset:end].decode('utf-8', 'replace'))
        offset = end + 1 + 18
    return names

def row_values(data):
    count = struct.unpack('!h', data[:2])[0]
    values, offset, size = [], 2, 0
    for _ in range(count):
        length = struct.unpack_from('!i', data, offset)[0]
        offset += 4
        if length < 0:
            values.append(None)
        else:
            values.append(data[offset:offset + length].decode('utf-8', 'replace'))
            offset += length
            size += length
    return values, size

def run_query(path, role, database, deadline_ms, max_rows, max_bytes, sql):
    deadline = time.monotonic() + deadline_ms / 1000.0
    # A server-side limit as well; the deadline below holds even if the statement lifts it.
    conn = Connection(path, role, database, deadline,
                      '-c statement_timeout=%d' % max(1, deadline_ms))
    sys.stderr.write('cuelab-backend-pid:%d\n' % conn.pid)
    sys.stderr.flush()
    text = cstring(sql)
    columns, rows, truncated, used, error = [], [], False, 0, None
    try:
        conn.send(message(b'P', b'\0' + text + struct.pack('!h', 0)) +
                  message(b'B', b'\0\0' + struct.pack('!hhh', 0, 0, 0)) +
                  message(b'D', b'P\0') +
                  message(b'E', b'\0' + struct.pack('!i', max_rows + 1)) +
                  message(b'S', b''))
        while True:
            kind, data = conn.read()
            if kind == b'T':
                columns = column_names(data)
            elif kind == b'D':
                values, size = row_values(data)
                if len(rows) >= max_rows or used + size > max_bytes:
                    truncated = True
                else:
                    rows.append(values)
                    used += size
            elif kind == b's':
                truncated = True
            elif kind == b'E':
                error = error_text(data)
            elif kind == b'Z':
                break
    except Timeout:
        end_backend(conn, role, database)
        return {'error': 'timed out after %d ms; the server ended the query' % deadline_ms,
                'timedOut': True}
    if error:
        if 'cannot insert multiple commands into a prepared statement' in error:
            error = 'sql_query runs one statement per call; send each statement on its own'
        return {'error': error}
    return {'columns': columns, 'rows': rows, 'truncated': truncated}

def run_load(path, role, database, plan_path):
    with open(plan_path, encoding='utf-8') as handle:
        steps = json.load(handle)
    conn = Connection(path, role, database, time.monotonic() + 86400)
    for step in steps:
        sql, data, line = step['sql'], step.get('copy'), step['line']
        conn.send(message(b'Q', cstring(sql)))
        error, copied = None, False
        while True:
            kind, body = conn.read()
            if kind == b'G':
                if data is None:
                    conn.send(message(b'f', cstring('no data follows this COPY in the dump')))
                else:
                    raw = data.encode('utf-8')
                    for start in range(0, len(raw), 1 << 20):
                        conn.send(message(b'd', raw[start:start + (1 << 20)]))
                    conn.send(message(b'c', b''))
                copied = True
            elif kind == b'E':
                error = error_text(body)
            elif kind == b'Z':
                break
        if error:
            raise Fail('line %d: %s' % (line, error))
        if data is not None and not copied:
            raise Fail('line %d: copy data follows a statement that did not read any' % line)

def run_kill(path, pid, role):
    conn = Connection(path, 'postgres', 'postgres', time.monotonic() + 10)
    where = "usename = '%s'" % role.replace("'", "''")
    if pid:
        where += ' AND pid = %d' % pid
    conn.simple('SELECT pg_catalog.pg_terminate_backend(pid, 2000) '
                'FROM pg_catalog.pg_stat_activity WHERE ' + where +
                ' AND pid <> pg_catalog.pg_backend_pid()')

def main(argv):
    mode = argv[1]
    try:
        if mode == 'query':
            result = run_query(argv[2], argv[3], argv[4], int(argv[5]), int(argv[6]),
                               int(argv[7]), argv[8])
            json.dump(result, sys.stdout)
            return 0
        if mode == 'load':
            run_load(argv[2], argv[3], argv[4], argv[5])
            return 0
        if mode == 'kill':
            run_kill(argv[2], int(argv[3]), argv[4])
            return 0
        raise Fail('unknown mode ' + mode)
    except (Fail, OSError, ValueError) as problem:
        if mode == 'query':
            json.dump({'error': str(problem)}, sys.stdout)
            return 0
        sys.stderr.write(str(problem) + '\n')
        return 1
    except Timeout:
        if mode == 'query':
            json.dump({'error': 'timed out before the server answered', 'timedOut': True},
                      sys.stdout)
            return 0
        sys.stderr.write('timed out\n')
        return 1

sys.exit(main(sys.argv))
`;
