import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type Rollup } from 'vite';
import { ROUTE_PRELOADS_FILE, SERVER_PAGES_MODULE, webRoutes } from '../../contract/src/web-routes.ts';
import { homeStylesheet } from './home-stylesheet.ts';

/** The app's module, which every page but a visitor's Home imports as soon as it starts. */
const APP_MODULE = 'src/app/start.tsx';

/**
 * The modules the router loads lazily for the pages people and crawlers arrive on from elsewhere
 * (router.tsx). Their code is preloaded in those pages' HTML; without it, it was fetched only
 * once the app had loaded and started routing, a second round of requests before the page showed.
 */
const landingRouteModules: Record<string, string[]> = {
  [webRoutes.product]: ['src/app/routes/product.tsx', 'src/features/products/api/get-product.ts'],
  [webRoutes.search]: ['src/app/routes/search.tsx'],
  [webRoutes.categories]: ['src/features/categories/routes/categories.tsx'],
  [webRoutes.blog]: ['src/features/blog/routes/blog.tsx'],
};

/** The modules of a build's entry and of the chunks it imports statically: what rendering it runs. */
function entryModules(output: Rollup.RollupOutput): string[] {
  const chunks = output.output.flatMap((item) => (item.type === 'chunk' ? [item] : []));
  const modules = new Set<string>();
  const seen = new Set<string>();
  const add = (chunk: Rollup.OutputChunk | undefined) => {
    if (!chunk || seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const id of chunk.moduleIds) modules.add(id);
    for (const file of chunk.imports) add(chunks.find((other) => other.fileName === file));
  };
  add(chunks.find((chunk) => chunk.isEntry));
  return [...modules];
}

/**
 * Builds `src/app/server-pages.tsx` for Node beside the web app, as dist/.server/server-pages.js:
 * the server imports it and renders Home, a product's page and search with React for each new answer of
 * their reads (decision 29). React, the router and TanStack Query stay in node_modules, where Node
 * finds them from there.
 *
 * The app's stylesheet comes with the app's code (start.tsx imports it). index.html, sent for
 * every other page, links it and preloads the app's code, which those pages import at once.
 * Home's template (.server/home.html) links Home's own stylesheet instead, the rules Home's markup
 * can use (decision 26), and no app code: the full stylesheet loads with the app. A product's
 * page's template (.server/page.html) links the app's stylesheet and no app code either.
 */
export function homePageModule(): Plugin {
  let root = '';
  let distDir = '';
  let template = '';
  let appCss = '';
  return {
    name: 'home-page-module',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      distDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return;
      const html = String(index.source);
      template = html;
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const app = chunks.find((chunk) => chunk.facadeModuleId === path.join(root, APP_MODULE));
      if (!app) throw new Error(`${APP_MODULE} is not in the bundle`);
      const [cssFile, ...more] = app.viteMetadata?.importedCss ?? [];
      const css = cssFile ? bundle[cssFile] : undefined;
      if (css?.type !== 'asset' || more.length) throw new Error(`${APP_MODULE} should bring exactly one stylesheet`);
      appCss = String(css.source);
      const files = new Set<string>();
      const add = (file: string) => {
        if (files.has(file) || html.includes(`/${file}"`)) return;
        files.add(file);
        for (const imported of chunks.find((chunk) => chunk.fileName === file)?.imports ?? []) add(imported);
      };
      add(app.fileName);
      // What each landing page's route adds to the app's code (its chunks and theirs, less what index.html preloads).
      const routePreloads = Object.fromEntries(
        Object.entries(landingRouteModules).map(([route, modules]) => {
          const routeFiles = new Set<string>();
          const addRoute = (file: string) => {
            if (routeFiles.has(file) || files.has(file) || html.includes(`/${file}"`)) return;
            routeFiles.add(file);
            for (const imported of chunks.find((chunk) => chunk.fileName === file)?.imports ?? []) addRoute(imported);
          };
          for (const module of modules) {
            const chunk = chunks.find((candidate) => candidate.facadeModuleId === path.join(root, module));
            if (!chunk) throw new Error(`${module} (route ${route}) is not a chunk of the bundle`);
            addRoute(chunk.fileName);
          }
          return [route, [...routeFiles]];
        }),
      );
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: JSON.stringify(routePreloads) });
      // Render-blocking, as the app renders nothing before it has its styles anyway.
      const stylesheet = `<link rel="stylesheet" crossorigin href="/${cssFile}">`;
      this.emitFile({ type: 'asset', fileName: path.posix.join(path.posix.dirname(SERVER_PAGES_MODULE), 'page.html'), source: html.replace('</head>', () => `  ${stylesheet}\n  </head>`) });
      const links = [stylesheet, ...[...files].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)].join('\n    ');
      index.source = html.replace('</head>', () => `  ${links}\n  </head>`);
    },
    async writeBundle() {
      const serverDir = path.join(distDir, path.dirname(SERVER_PAGES_MODULE));
      const output = (await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [react()],
        build: { ssr: 'src/app/server-pages.tsx', outDir: serverDir, emptyOutDir: false, minify: false, copyPublicDir: false },
      })) as Rollup.RollupOutput;
      // Tailwind reads only src/ (index.css), so only those files can bring classes.
      const sources = entryModules(output).filter((id) => id.startsWith(path.join(root, 'src') + path.sep));
      const css = homeStylesheet(appCss, sources);
      const cssFile = `assets/home-${createHash('sha256').update(css).digest('base64url').slice(0, 8)}.css`;
      await fs.writeFile(path.join(distDir, cssFile), css);
      const link = `<link rel="stylesheet" crossorigin href="/${cssFile}">`;
      await fs.writeFile(path.join(serverDir, 'home.html'), template.replace('</head>', () => `  ${link}\n  </head>`));
    },
  };
}
