import { spawn } from 'node:child_process';
import net from 'node:net';
import { listensOn } from '../../bench/lib';
import { itIf } from '../helpers/skip';
import fs from 'node:fs';

// bench/lib.ts startProcess counts a child as ready only when the child itself holds the port: a free
// port handed out by the OS can be taken by another process first (test files run side by side), and
// that process would answer the readiness probe (the haproxy recipe test once failed so).
const linux = fs.existsSync('/proc/net/tcp');

describe('listensOn: who holds a listening port', () => {
  itIf(linux, 'needs Linux /proc')('this process, another process, nobody', async () => {
    const own = net.createServer();
    await new Promise<void>((r) => own.listen(0, '127.0.0.1', r));
    const ownPort = (own.address() as net.AddressInfo).port;
    const child = spawn(process.execPath, [
      '-e',
      "const s = require('net').createServer().listen(0, '127.0.0.1', () => console.log(s.address().port))",
    ]);
    try {
      const childPort = await new Promise<number>((resolve) =>
        child.stdout.once('data', (d) => resolve(Number(String(d)))),
      );
      expect(listensOn(process.pid, ownPort)).toBe(true);
      expect(listensOn(child.pid!, childPort)).toBe(true);
      // the port is answered, but not by the process asked about
      expect(listensOn(process.pid, childPort)).toBe(false);
      expect(listensOn(child.pid!, ownPort)).toBe(false);
    } finally {
      child.kill();
      await new Promise<void>((r) => own.close(() => r()));
    }
    // nobody listens there any more
    expect(listensOn(process.pid, ownPort)).toBe(false);
  });
});
