// The engine's worker entry: a bootstrap only, so that an engine module that cannot load (a dependency the app's
// bundler did not resolve, a syntax error) reaches the page with its own error rather than a bare `error` event
// (src/worker-start.ts). The engine itself is exposed-engine.ts.
import { reportModuleLoad } from './module-bootstrap'

reportModuleLoad(import('./exposed-engine'))
