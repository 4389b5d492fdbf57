import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const destination = fileURLToPath(new URL('./log-destination.ts', import.meta.url));

/** A process that logs through the destination to its standard output, which this test reads. */
function logging(script: string) {
  const code = `import { blockLogDestination } from ${JSON.stringify(destination)};
    const log = blockLogDestination(1, { blockBytes: 1024, flushMs: 50 });
    ${script}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return { child, output: () => output };
}

describe('the log written in blocks', () => {
  it('writes every line, in order, and those still held when the process exits', async () => {
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index}\n`);
    const { child, output } = logging(`for (const line of ${JSON.stringify(lines)}) log.write(line);`);
    await new Promise((resolve) => child.once('close', resolve));
    expect(output()).toBe(lines.join(''));
  });

  it('writes a quiet server’s last line without waiting for a block to fill', async () => {
    const { child, output } = logging(`log.write('alone\\n'); setInterval(() => {}, 1000);`);
    await new Promise<void>((resolve) => child.stdout.on('data', () => output().includes('\n') && resolve()));
    child.kill();
    expect(output()).toBe('alone\n');
  });
});
