import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { HOME_PAGE_MODULE } from '../../contract/src/web-routes.ts';

/**
 * Builds `src/app/home-page.tsx` for Node beside the web app, as dist/.server/home-page.js: the
 * server imports it and renders Home with React for each new answer of Home's reads (decision 29).
 * React, the router and TanStack Query stay in node_modules, where Node finds them from there.
 */
export function homePageModule(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'home-page-module',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir, path.dirname(HOME_PAGE_MODULE));
    },
    async writeBundle() {
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [react()],
        build: { ssr: 'src/app/home-page.tsx', outDir, emptyOutDir: true, minify: false, copyPublicDir: false },
      });
    },
  };
}
