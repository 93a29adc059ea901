// The renderer's build: root renderer/, output out/renderer, relative base so the same files load
// from file:// in Electron and from `bindery serve`.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    // No inline data: scripts or styles; the CSP allows only the app's own files.
    assetsInlineLimit: 0,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
});
