import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The dashboard is served by the API itself at `/` (api/dashboard), so assets are absolute and hashed
 * (`/assets/…`, cached as immutable). `npm run dev -w web` proxies the API paths to a running `npm start`.
 */
const API = [
  '/auth',
  '/api-keys',
  '/operator-data-api',
  '/platform-api',
  '/gateway',
  '/connections-api',
  '/analytics-api',
  '/workflows-api',
  '/webhook-receiver',
  '/mcp-server',
  '/healthz',
  '/openapi.json',
];

export default defineConfig({
  plugins: [react()],
  base: '/',
  build: { outDir: 'dist', assetsDir: 'assets', sourcemap: false, target: 'es2022', chunkSizeWarningLimit: 600 },
  server: { proxy: Object.fromEntries(API.map((prefix) => [prefix, 'http://127.0.0.1:8080'])) },
});
