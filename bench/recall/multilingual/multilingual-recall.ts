import type { Context, ContextItem } from '../../../src/types'
import { AnswerTally, answerOutcome, type AnswerResults } from './answer-tally'
import type { MultilingualConversation, MultilingualQuestion } from './multilingual-set'
import { packableSentences, randomContexts } from './random-packing'

/** The random baseline's strategy name in the results. */
export const RANDOM_PACKING = 'random'
/** Random draws per conversation and budget: enough that the baseline's share moves by well under a point between seeds. */
const RANDOM_DRAWS = 50

/**
 * What `bench:recall` measures on the multilingual set besides evidence recall: for every context it builds, whether
 * the answer string is in `ctx.text` (per language and question kind), and the same for the random-packing
 * baseline at each budget.
 */
export class MultilingualRecall {
  readonly tally = new AnswerTally()

  constructor(private readonly budgets: readonly number[]) {}

  /** Records the random baseline of each of `questions` about `conversation`, from its `full` context's items. */
  conversationIndexed(
    conversation: MultilingualConversation,
    questions: readonly MultilingualQuestion[],
    fullItems: readonly ContextItem[],
  ): void {
    const sentences = packableSentences(fullItems)
    for (const budget of this.budgets) {
      const contexts = randomContexts(sentences, budget, RANDOM_DRAWS, budget)
      for (const question of questions) {
        const outcomes = contexts.map((context) =>
          answerOutcome(
            question,
            context.text,
            question.evidence.some((id) => context.messageIds.has(id)),
          ),
        )
        const mean = (pick: (outcome: (typeof outcomes)[number]) => number) =>
          outcomes.reduce((sum, outcome) => sum + pick(outcome), 0) / outcomes.length
        this.tally.record(conversation.language, RANDOM_PACKING, budget, question.kind, {
          anyEvidence: mean((outcome) => outcome.anyEvidence),
          answerInContext: mean((outcome) => outcome.answerInContext),
          ...(question.kind === 'update' ? { staleOnly: mean((outcome) => outcome.staleOnly ?? 0) } : {}),
        })
      }
    }
  }

  /** Records one context built for `question`; returns whether the answer is in its text. */
  contextBuilt(
    conversation: MultilingualConversation,
    question: MultilingualQuestion,
    strategy: string,
    budget: number,
    context: Context,
    evidenceFound: boolean,
  ): boolean {
    const outcome = answerOutcome(question, context.text, evidenceFound)
    this.tally.record(conversation.language, strategy, budget, question.kind, outcome)
    return outcome.answerInContext === 1
  }

  results(): AnswerResults {
    return this.tally.results()
  }
}
