import react from '@vitejs/plugin-react'
import { siftMemory } from 'sift-memory/vite'
import { defineConfig } from 'vite'

// Vite puts this nonce on every script and style tag it writes (React's refresh preamble under `vite dev`, the
// styles it injects), and the policy allows only scripts and styles that carry it. A server that renders the page
// per request gives each response a fresh nonce; a static host serves this one.
const NONCE = 'sift-example-nonce'

const headers = {
  // Cross-origin isolation: ONNX Runtime then runs the model on several threads (SharedArrayBuffer).
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  // Scripts, styles, workers and the model from this origin only; 'wasm-unsafe-eval' lets ONNX Runtime compile its
  // WebAssembly. connect-src names where chat requests may go: narrow it to your LLM endpoint's origin.
  'Content-Security-Policy': [
    "default-src 'self'",
    `script-src 'self' 'nonce-${NONCE}' 'wasm-unsafe-eval'`,
    `style-src 'self' 'nonce-${NONCE}'`,
    "worker-src 'self'",
    "connect-src 'self' https: http://localhost:* http://127.0.0.1:* ws://localhost:*",
  ].join('; '),
}

export default defineConfig({
  plugins: [react(), siftMemory()], // siftMemory: serves (dev) and emits (build) /models/ and /ort/
  html: { cspNonce: NONCE },
  server: { headers },
  preview: { headers },
})
