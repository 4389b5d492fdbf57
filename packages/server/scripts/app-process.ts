import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * What `npm start` runs (the root package.json's start script): the environment it sets and the
 * arguments it gives node, so that a process started as `npm start` runs has its memory settings
 * and V8 flags too.
 */
function startCommand(): { env: Record<string, string>; args: string[] } {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.trim().split(/\s+/);
  const nodeAt = words.indexOf('node');
  const assignments = words.slice(0, Math.max(nodeAt, 0));
  if (nodeAt < 0 || !assignments.every((word) => /^[A-Z_]+=\S+$/.test(word))) throw new Error(`npm start runs ${scripts.start}, not node`);
  return { env: Object.fromEntries(assignments.map((word) => word.split('='))), args: words.slice(nodeAt + 1) };
}

/** The arguments `npm start` gives node. */
export const startArguments = (): string[] => startCommand().args;

/** The environment `npm start` sets for node. */
export const startEnvironment = (): Record<string, string> => startCommand().env;

/** Waits until the app started as `child` answers `url` with a success; fails if it exits first. */
export async function waitUntilAnswering(url: string, child: ChildProcess) {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url} exited with code ${child.exitCode}`);
    const answered = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}
