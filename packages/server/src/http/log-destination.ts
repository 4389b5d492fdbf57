import fs from 'node:fs';

/** Waits before writing again to a pipe that is full (EAGAIN). */
const RETRY_MS = 10;

/**
 * Where the log's lines go: an open file descriptor (standard output), written in the background
 * in blocks of `blockBytes`, or after `flushMs` when the server is quiet, and whatever is left when
 * the process exits. Lines are kept as a list and joined once per block: pino's own destination
 * appended each line to a growing string and measured it again for every line, which with the
 * write itself cost twice what this does (decision 50).
 */
export function blockLogDestination(fd: number, { blockBytes, flushMs }: { blockBytes: number; flushMs: number }) {
  let lines: string[] = [];
  let pendingBytes = 0;
  let writing = false;

  function takeBlock(): Buffer {
    const block = Buffer.from(lines.join(''));
    lines = [];
    pendingBytes = 0;
    return block;
  }

  function writeOut(block: Buffer) {
    writing = true;
    fs.write(fd, block, 0, block.length, null, (error, written) => {
      if (error && error.code !== 'EAGAIN') {
        writing = false;
        return; // standard output is gone: nothing is left to tell
      }
      const rest = block.subarray(error ? 0 : written);
      if (rest.length > 0) return void setTimeout(() => writeOut(rest), error ? RETRY_MS : 0);
      writing = false;
      if (pendingBytes >= blockBytes) writeOut(takeBlock());
    });
  }

  function flush() {
    if (!writing && lines.length > 0) writeOut(takeBlock());
  }

  setInterval(flush, flushMs).unref();
  process.once('exit', () => {
    if (lines.length === 0) return;
    try {
      fs.writeSync(fd, takeBlock());
    } catch {
      // standard output is gone
    }
  });

  return {
    write(line: string) {
      lines.push(line);
      pendingBytes += line.length;
      if (!writing && pendingBytes >= blockBytes) writeOut(takeBlock());
    },
  };
}
