// zod (the AI SDK's schemas) tries `Function('')` once, to see whether it may compile its parsers; under this page's
// Content-Security-Policy (no 'unsafe-eval') that try is reported as a violation before it is caught. Jitless, zod
// parses without trying. Imported first, before the AI SDK builds its schemas.
import { config } from 'zod'

config({ jitless: true })
