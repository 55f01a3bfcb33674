import { defineConfig } from 'vite'
import { siftMemory } from 'sift-memory/vite'

const headers = {
  // Cross-origin isolation: ONNX Runtime then runs the model on several threads (SharedArrayBuffer).
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  // Scripts, workers and the model from this origin only; 'wasm-unsafe-eval' lets ONNX Runtime compile its
  // WebAssembly. connect-src names where chat requests may go, and sync's (the settings' "Sync across devices"): narrow
  // it to your LLM endpoint's origin, and add your sync server's (localhost's and 127.0.0.1's are there for trying it).
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self' https: http://localhost:* http://127.0.0.1:*",
}

export default defineConfig({
  plugins: [siftMemory()], // serves (dev) and emits (build) /models/ and /ort/
  server: { headers },
  preview: { headers },
})
