import { expose } from 'comlink'
import { installSiftErrorTransfer } from '../../src/error-transfer'
import { browserHost } from '../hosts/browser-host'
import { engineApi } from './engine-api'

installSiftErrorTransfer()
expose(engineApi(browserHost))
