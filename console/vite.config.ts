// Vite builds the console into console/dist, served by the service at /console (docs/console.md).
// `npm run console:dev` serves it with hot reload on :5173 and sends /api to the service on :8080.
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Source maps stay out of the served files; the bundle size the issue bounds is what is sent.
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
})
