import { expose } from 'comlink'
import { browserHost } from './browser-host'
import { installSiftErrorTransfer } from './sift-error-transfer'
import { workerApi } from './worker-api'

installSiftErrorTransfer()
expose(workerApi(browserHost))
