import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';

/** index.html's placeholder inside #root, shown until the app renders over it. */
const BOOT_LOADER = /<div class="boot-loader"[^>]*><span><\/span><\/div>/;

/** Builds the shell's module for Node (React and the router from node_modules) and renders it. */
async function renderHomeShell(root: string): Promise<string> {
  // Inside the package, so that Node finds the externalised packages from the built module.
  const outDir = path.join(root, 'node_modules/.home-shell');
  try {
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      plugins: [react()],
      build: { ssr: 'src/app/home-shell.tsx', outDir, emptyOutDir: true, minify: false },
    });
    const shell = (await import(pathToFileURL(path.join(outDir, 'home-shell.js')).href)) as { renderHomeShell(): string };
    return shell.renderHomeShell();
  } finally {
    await fs.rm(outDir, { recursive: true, force: true });
  }
}

/**
 * Writes home.html beside index.html: the same page with Home's shell rendered into #root in place
 * of the boot loader. The server sends it for Home, so Home paints its hero from the HTML and the
 * stylesheet alone (decision 26).
 */
export function prerenderHome(): Plugin {
  let root = '';
  return {
    name: 'prerender-home',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return;
      const html = String(index.source);
      if (!BOOT_LOADER.test(html)) throw new Error('index.html has no boot loader to put Home in place of');
      const shell = await renderHomeShell(root);
      this.emitFile({ type: 'asset', fileName: 'home.html', source: html.replace(BOOT_LOADER, () => shell) });
    },
  };
}
