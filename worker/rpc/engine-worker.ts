import { expose } from 'comlink'
import { browserHost } from '../hosts/browser-host'
import { installSiftErrorTransfer } from './sift-error-transfer'
import { workerApi } from './engine-api'

installSiftErrorTransfer()
expose(workerApi(browserHost))
