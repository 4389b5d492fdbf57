import type { ChildProcess } from 'node:child_process';

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
