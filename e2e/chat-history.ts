// A chat history for the tests of the AI SDK middleware and of the React example: user turns, one an exchange, the
// dog's name said early, long before the turns a request sends verbatim, so that only the context can bring it back.
export const DOG_TURN = 'We adopted a greyhound last spring and named her Biscuit after her colour.'

export const CHAT_HISTORY = [
  'I moved to Leeds in March for a job at the university library.',
  DOG_TURN,
  'On Saturdays I swim forty lengths at the leisure centre before breakfast.',
  'My sister Ines is a paediatric nurse in Porto and visits every August.',
  'I am learning the cello, and my teacher says my bowing arm is too stiff.',
  'I cannot eat peanuts, so I always check the labels on cereal bars.',
  'I bought a second-hand bicycle with a wicker basket for the commute.',
  'My grandmother taught me to bake rye bread with caraway seeds.',
  'The neighbours downstairs play the trombone late on Thursday evenings.',
  'I would like to walk the Pennine Way one day, in stages over several summers.',
]
