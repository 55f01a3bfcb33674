// The chat bench/prompt-cache/run.ts replays: an earlier session the app has summarised and pinned two facts of, then
// twenty requests, each answered, in a later session. Written for this bench: everyday facts said once, asked about
// later in other words, the way a chat user comes back to them.

/** A turn as the bench stores it: who said it and what. */
export interface ScriptTurn {
  role: 'user' | 'assistant'
  content: string
}

export const SYSTEM_PROMPT = [
  'You are Juniper, a friendly personal assistant inside a note-taking app.',
  'Answer in the language of the question, briefly unless asked for detail.',
  'Use what you are told about the user below when it helps, and say so when you rely on it.',
  'Never invent facts about the user; if something is not in the notes or the conversation, ask.',
  'Prefer concrete suggestions (times, places, quantities) to general advice.',
  'Do not give medical, legal or financial advice beyond general information; suggest a professional instead.',
].join(' ')

/** The earlier session: the app pins `PINNED` of it and summarises it (`SUMMARY`). */
export const EARLIER: readonly ScriptTurn[] = [
  { role: 'user', content: 'Hi! I just moved to Ghent for a job at the botanical garden, I start in two weeks.' },
  { role: 'assistant', content: 'Congratulations on the new job! Ghent is lovely. How can I help you settle in?' },
  {
    role: 'user',
    content: 'Important: I am severely allergic to shellfish, so please keep that in mind for any food ideas.',
  },
  {
    role: 'assistant',
    content: 'Noted: no shellfish in anything I suggest, and I will flag dishes that often hide it.',
  },
  { role: 'user', content: 'My daughter Noor is seven and starts at a new school on the 6th of January.' },
  { role: 'assistant', content: "A new school is a big step. Would you like a checklist for Noor's first week?" },
  { role: 'user', content: "Maybe later. We don't have a car, we cycle everywhere, Noor on a child seat." },
  { role: 'assistant', content: 'Ghent is very bike-friendly. The car-free centre will suit you both.' },
  { role: 'user', content: 'My partner Sam works nights at the hospital, so mornings are mine alone.' },
  {
    role: 'assistant',
    content: 'Understood: mornings are yours alone, so plans for school runs should not rely on Sam.',
  },
  { role: 'user', content: 'I play the viola in an amateur orchestra, rehearsals are on Tuesday evenings.' },
  { role: 'assistant', content: 'Tuesday evenings are taken then. Is there a babysitter for Noor on those nights?' },
  { role: 'user', content: 'Yes, our neighbour Hilde sits for us on Tuesdays, she is retired and adores Noor.' },
  { role: 'assistant', content: 'That is a great arrangement. Hilde sounds like a treasure.' },
]

/** The earlier session's messages (by index in `EARLIER`) the app pins: the allergy and the daughter's school. */
export const PINNED = [2, 4] as const

/** The app's summary of the earlier session. */
export const SUMMARY =
  'The user moved to Ghent for a job at the botanical garden, lives with partner Sam (night shifts at the hospital) ' +
  'and daughter Noor (7), has no car and cycles, plays viola in an amateur orchestra on Tuesdays, and neighbour ' +
  'Hilde babysits then.'

/** The app's summary once it has summarised the first `RESUMMARISED_AFTER` requests of the later session too. */
export const LATER_SUMMARY =
  `${SUMMARY} In the later session they planned Noor's first school week, a shellfish-free birthday dinner for Sam ` +
  'and a cargo bike.'

/** After this many requests of the later session the app sets `LATER_SUMMARY` (apps re-summarise now and then). */
export const RESUMMARISED_AFTER = 10

/** The later session: each request and the reply it got. */
export const REQUESTS: readonly [request: string, reply: string][] = [
  [
    'Can you help me plan the mornings of the first school week?',
    'Sure. With Sam on nights, you do the runs: leave at 8:05 by bike, school gate at 8:20, then straight on to work.',
  ],
  [
    'What should I pack for her lunch on the first day?',
    'A cheese sandwich on brown bread, cucumber sticks, an apple and a small water bottle: easy to eat and to carry.',
  ],
  [
    'It might rain a lot. What does she need for the ride?',
    'A rain poncho that covers the child seat, waterproof overtrousers and mudguards if your bike lacks them.',
  ],
  [
    "Sam's birthday is next Saturday. Ideas for a dinner at home?",
    'A mushroom and leek risotto, a green salad and a chocolate mousse you can make the day before: no shellfish.',
  ],
  [
    'Would a paella work instead?',
    'A classic paella usually has prawns and mussels, so make a chicken and chorizo one and check the stock is shellfish-free.',
  ],
  [
    'Which evening this week is free for a test run of the recipe?',
    'Any evening but Tuesday, your rehearsal night. Wednesday gives you time to shop after work.',
  ],
  [
    'How do I get the viola to rehearsal in the rain?',
    'A waterproof case cover and a backpack-style case keep your hands free on the bike.',
  ],
  [
    'Hilde asked what Noor likes to eat for dinner on Tuesdays.',
    'Tell her Noor likes simple things: pasta with tomato sauce, pancakes, soup with bread. I have no notes on dislikes.',
  ],
  [
    'Noor says she is nervous about making friends.',
    'Suggest she brings a small toy or book to show. Ask the teacher if a buddy can show her around on day one.',
  ],
  [
    'Can you draft a short note to her new teacher?',
    'Dear teacher, Noor (7) joins your class on 6 January. She is a little nervous; a buddy for the first days would help. Best wishes.',
  ],
  [
    'We are thinking about a cargo bike. Worth it for us?',
    'With no car and daily school runs, yes: a cargo bike carries Noor, shopping and the viola. Try a rental for a week first.',
  ],
  [
    'Electric or not?',
    'Electric, for the hills outside the centre and heavier loads. Check the range covers school, work and back.',
  ],
  [
    'Where could I rent one to try?',
    'Ask at bike shops in the centre and at the city bike-sharing service; some rent cargo bikes by the day.',
  ],
  [
    'What about a child seat in a cargo bike?',
    'Most front-box cargo bikes have a bench with belts for one or two children; Noor at seven fits easily.',
  ],
  [
    'Sam wants to know when I am free for a date night.',
    'Not Tuesday; Sam works nights, so a weekend evening he is off is best. Hilde might sit on another night if asked.',
  ],
  [
    'Any restaurant tips in Ghent for that?',
    'Look for a vegetarian or Italian place in the Patershol; ask them to confirm no shellfish in sauces and stocks.',
  ],
  [
    'Should I tell the school about my allergy too?',
    "Only if you eat there; it is Noor's allergies they need. Does Noor have any? I have no notes on that.",
  ],
  [
    "She doesn't. What else should I give the school?",
    'Emergency contacts (you and Sam, with his night shifts noted), who may pick her up (Hilde?), and any health notes.',
  ],
  [
    'Remind me what time I need to leave in the mornings?',
    'At 8:05 by bike, to be at the school gate at 8:20 and at the botanical garden after that.',
  ],
  [
    'Thanks! Summarise what we planned for the first week.',
    'Mornings: leave 8:05, gate 8:20. Lunch packed the night before. Rain gear for the ride. Note to the teacher sent. Tuesday: Hilde sits.',
  ],
]
