// The recall and forget tools run against a memory, for any SDK: what both entries publish beside the pure tool
// definitions (src/core/), since these take the memory.
export { recall, type RecallOptions } from './recall'
export {
  findStatementsToForget,
  forgetRestatements,
  forgetStatements,
  type ForgetConfirm,
  type ForgetOptions,
  type ForgetSearchOptions,
} from './forget'
