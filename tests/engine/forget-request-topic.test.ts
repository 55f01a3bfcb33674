import { describe, expect, it } from 'vitest'
import { forgetRequestTopic } from '../../worker/input/forget-request-topic'

describe('forgetRequestTopic', () => {
  it.each([
    ["Please forget that I'm allergic to peanuts.", "I'm allergic to peanuts"],
    ['Can you delete what I said about my salary?', 'my salary'],
    ['Forget everything I told you about Tom', 'Tom'],
    ["Don't remember that my password is hunter2", 'my password is hunter2'],
    ['Stop remembering the fact that I smoke', 'I smoke'],
    ['Hey, forget about my ex, please!', 'my ex'],
    ['forget my address', 'my address'],
    ['Could you please remove the part where I mentioned my divorce', 'my divorce'],
    ['OK so forget that my sister lives in Lisbon', 'my sister lives in Lisbon'],
    ["I'd like you to erase what I wrote about the layoffs.", 'the layoffs'],
    ['  forget   that   I live in Porto  ', 'I live in Porto'],
  ])('%j is about %j', (request, topic) => {
    expect(forgetRequestTopic(request)).toBe(topic)
  })

  it.each([
    [
      "Great day at work. Please forget that I said I'm allergic to kiwi — it's my nephew who is. Any cake recipes?",
      "I'm allergic to kiwi",
    ],
    ['We moved last week. I no longer live in Porto, so that is out of date. What should I pack?', 'I live in Porto'],
    ['Things with Sam ended. I would rather you did not keep his name.', 'Things with Sam ended. his name'],
    ["Can you delete what I said about my salary? It's private.", 'my salary'],
    ["The trip was fine. That thing about my visa isn't true anymore, forget it.", 'The trip was fine. my visa'],
  ])('finds the request inside %j: %j', (message, topic) => {
    expect(forgetRequestTopic(message)).toBe(topic)
  })

  it.each([
    ["I'm allergic to peanuts", 'a plain statement'],
    ['Forgetting things is normal', 'a word that only starts like the request'],
    ['So I went to the market', 'an opening filler without a request'],
    ['forget it', 'a request without a topic'],
    ['Forget that.', 'a request pointing at nothing named'],
    ['Forget what I said', 'a pointer to what was said, without a topic'],
    ['forget everything I told you', 'a pointer to everything told, without a topic'],
  ])('gives %j back as it is (%s)', (request) => {
    expect(forgetRequestTopic(request)).toBe(request.trim())
  })
})
