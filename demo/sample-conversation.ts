import type { MessageInput } from '../src/types'

/** A short synthetic conversation written for the demo: facts scattered over turns, so retrieval has work to do. */
export const sampleConversation: MessageInput[] = [
  { role: 'user', content: 'Hi! I just moved to Porto for a new job as a night-shift nurse at the children’s hospital.' },
  { role: 'assistant', content: 'Congratulations on the move! Night shifts are demanding. How are you settling in?' },
  { role: 'user', content: 'Slowly. My dog Biscuit, a very anxious beagle, hates the trams. I also need to learn Portuguese fast.' },
  { role: 'assistant', content: 'For Biscuit, short walks on quiet streets first can help. For Portuguese, fifteen minutes a day of spaced repetition beats one long weekly session.' },
  { role: 'user', content: 'Good idea. Note that I am vegetarian and seriously allergic to peanuts, so cooking local food is tricky.' },
  { role: 'assistant', content: 'Caldo verde can be made without chorizo, and many pastelarias label allergens. Always ask about peanut oil in fried snacks.' },
  { role: 'user', content: 'My sister Ana visits in October. She loves football, so maybe we will watch a match at the Dragão stadium.' },
  { role: 'assistant', content: 'Tickets for league matches usually go on sale about two weeks before. Booking early is wise if the opponent is Benfica.' },
  { role: 'user', content: 'I run every morning after my shift, around 7 km along the Douro river, but my left knee has started to hurt.' },
  { role: 'assistant', content: 'Knee pain after runs is often about load. Try reducing to 5 km for two weeks, and check that your shoes still have cushioning.' },
  { role: 'user', content: 'My budget is tight this month because the deposit for the flat was 1,800 euros.' },
  { role: 'assistant', content: 'Then free activities are your friends: the Crystal Palace gardens, the riverside walk, and the free museum Sundays.' },
  { role: 'user', content: 'By the way, my favourite author is Saramago and I want to read Blindness in the original Portuguese one day.' },
  { role: 'assistant', content: 'That is a great long-term goal. Graded readers first, then Saramago’s shorter essays, then the novel.' },
  { role: 'user', content: 'Can you remind me later that Biscuit needs his rabies booster before the end of November?' },
  { role: 'assistant', content: 'Noted: Biscuit’s rabies booster is due before the end of November. The vet near Bolhão market has evening hours.' },
]

/** Requests that the sample conversation can answer, offered as one-click examples. */
export const sampleRequests = [
  'Suggest a dinner recipe I could cook tonight.',
  'Plan a weekend for my sister’s visit.',
  'What should I keep in mind for my morning run?',
  'What does my dog need this autumn?',
]
