// The model's worker entry, started by the engine's worker: a bootstrap only, so that a model module that cannot
// load (transformers.js or ONNX Runtime left unresolved by the app's bundler) reaches the engine with its own error
// (src/worker-start.ts). The model itself is exposed-model.ts.
import { reportModuleLoad } from './module-bootstrap'

reportModuleLoad(import('./exposed-model'))
