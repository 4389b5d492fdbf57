import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress.ts';
import { homePageModule } from './scripts/home-page-module.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

const frameworkPackages = /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/]query-core|@tanstack[\\/]react-query)[\\/]/;
/** Mutation observers serve only the dashboard's forms and tables; Home does without them. */
const dashboardOnly = /[\\/](useMutation|mutationObserver)\.js$/;
const isFrameworkModule = (id: string) => frameworkPackages.test(id) && !dashboardOnly.test(id);

export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), homePageModule(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The bench script reads the manifest to know what the first load of Home downloads.
    manifest: true,
    // Every browser the app supports preloads modules natively.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The live events client is an entry of its own, loaded only once someone signs in: its whole
      // API stays in the build under its own names, for features that load it lazily.
      input: { index: `${root}index.html`, 'live-events': `${root}src/lib/live-events.ts` },
      preserveEntrySignatures: 'exports-only',
      output: {
        codeSplitting: {
          groups: [
            // What every page needs, in one file that compresses better than many small ones.
            { name: 'framework', test: isFrameworkModule },
          ],
        },
      },
      treeshake: {
        // The contract's modules only declare constants and schemas: unused ones can be dropped,
        // which keeps zod out of pages that only need messages.
        moduleSideEffects: (id: string) => !id.includes('/packages/contract/'),
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:5000' },
  },
});
