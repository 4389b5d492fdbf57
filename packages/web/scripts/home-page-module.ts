import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { HOME_PAGE_MODULE } from '../../contract/src/web-routes.ts';

/** The app's module, which every page but a visitor's Home imports as soon as it starts. */
const APP_MODULE = 'src/app/start.tsx';

/**
 * Builds `src/app/home-page.tsx` for Node beside the web app, as dist/.server/home-page.js: the
 * server imports it and renders Home with React for each new answer of Home's reads (decision 29).
 * React, the router and TanStack Query stay in node_modules, where Node finds them from there.
 * Home's template (.server/home.html) is index.html as built; index.html itself, sent for every
 * other page, also preloads the app's code, which those pages import at once.
 */
export function homePageModule(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'home-page-module',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir, path.dirname(HOME_PAGE_MODULE));
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return;
      const html = String(index.source);
      this.emitFile({ type: 'asset', fileName: path.join(path.dirname(HOME_PAGE_MODULE), 'home.html'), source: html });
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const app = chunks.find((chunk) => chunk.facadeModuleId === path.join(root, APP_MODULE));
      if (!app) throw new Error(`${APP_MODULE} is not in the bundle`);
      const files = new Set<string>();
      const add = (file: string) => {
        if (files.has(file) || html.includes(`/${file}"`)) return;
        files.add(file);
        for (const imported of chunks.find((chunk) => chunk.fileName === file)?.imports ?? []) add(imported);
      };
      add(app.fileName);
      const links = [...files].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
      index.source = html.replace('</head>', () => `  ${links}\n  </head>`);
    },
    async writeBundle() {
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [react()],
        build: { ssr: 'src/app/home-page.tsx', outDir, emptyOutDir: false, minify: false, copyPublicDir: false },
      });
    },
  };
}
