import type { SampleSession } from './sample-conversation'

/**
 * The second half of the demo's sample history (written for the demo), from the summer trip to the run-up to
 * Christmas. Several facts from the spring half change here: where they live, the race, Ana's dates, the allergy
 * and who looks after Biscuit.
 */
export const autumnSessions: SampleSession[] = [
  {
    date: '2026-07-14T19:05:00Z',
    turns: [
      [
        'user',
        'We booked the Azores! São Miguel from 12 to 19 August. The flights were 280 euros each from Porto to Ponta Delgada, and we rented a small car for the week.',
      ],
      [
        'assistant',
        'São Miguel in August is beautiful. With a car you can reach the crater lakes, the tea plantations and the hot springs easily. Roads on the island are narrow and winding, so plan shorter distances than the map suggests.',
      ],
      [
        'user',
        'We want to hike at Sete Cidades, swim in the hot springs at Furnas and go whale watching. The problem is that Tom gets seasick, even on ferries.',
      ],
      [
        'assistant',
        'For whale watching, choose a morning trip (the sea is usually calmer), ask for a spot in the middle of the boat and at the back, keep looking at the horizon, and have Tom take a seasickness tablet about an hour before boarding. Ginger sweets help some people too. Many operators also offer a free second trip if no whales are seen.',
      ],
      [
        'user',
        'What about food? I read that the famous dish is cozido cooked in the ground by the volcano, which is all meat.',
      ],
      [
        'assistant',
        'The cozido das Furnas is indeed mostly meat, but the island has more than that: fresh cheeses from São Jorge and São Miguel, sweet Azorean pineapples, local tea, bolo lêvedo (a sweet muffin-like bread) and good vegetable soups. In small villages, say clearly that you are vegetarian and allergic to peanuts, and carry your allergy card in Portuguese.',
      ],
      [
        'user',
        'How much cash should we bring? We are trying to keep the whole trip under 1,500 euros including the flights.',
      ],
      [
        'assistant',
        'With 560 for flights and maybe 250 for the car, you have around 690 for a week of accommodation, food and activities, which is tight but possible with a self-catering place. Most restaurants and shops take cards, but small cafés and the hot springs sometimes prefer cash, so 100 to 150 euros in cash is enough.',
      ],
    ],
  },
  {
    date: '2026-07-28T21:00:00Z',
    turns: [
      [
        'user',
        'There is a heat wave in Porto this week, 38 degrees yesterday. Biscuit just lies on the kitchen tiles and refuses to walk.',
      ],
      [
        'assistant',
        'Beagles do not cope well with heat, so let him rest. Walk him only early in the morning and late in the evening, test the pavement with the back of your hand (if it is too hot to hold for five seconds, it is too hot for his paws), keep fresh water in two places, and give him a damp towel to lie on. Signs of heatstroke to watch for are heavy panting, drooling, wobbliness and vomiting: then call the vet straight away.',
      ],
      [
        'user',
        'Our flat has no air conditioning. We sleep with wet sheets on the windows, which Tom thinks is hilarious.',
      ],
      [
        'assistant',
        'It works, to a point. Close the shutters on the sunny side during the day and open everything at night to let the cooler air through; a fan placed facing out of one window pulls hot air out of the room. A cool shower just before bed and a cotton sheet instead of a duvet also help you sleep, which matters now you are up at six for the day shift.',
      ],
      [
        'user',
        'Tom had news too. His company in Berlin wants him in the office one week every month from October. He is not thrilled, but the flights are paid.',
      ],
      [
        'assistant',
        'One week a month in Berlin changes your routine a little: that week you will be on your own with Biscuit and your day shifts. It may be worth asking Rui, or a walker near you, to cover a midday walk on those weeks, and putting the Berlin weeks in a shared calendar early so they do not collide with visits or races.',
      ],
      [
        'user',
        'At least I can run in the evenings now. I did 7 km yesterday at ten at night when it finally cooled down, and the knee felt fine.',
      ],
      [
        'assistant',
        'Running late when it is cooler is the right call in a heat wave. Drink before and after, keep the pace easy, and skip a run rather than push through on the hottest days. It is good to hear the knee is holding up at 7 km.',
      ],
    ],
  },
  {
    date: '2026-08-24T12:30:00Z',
    turns: [
      [
        'user',
        'We are back from the Azores. Sete Cidades was unreal, and we saw a sperm whale and a huge group of dolphins. Tom took the tablet and was fine!',
      ],
      [
        'assistant',
        'That sounds like a wonderful trip, and seeing a sperm whale is special. Good to know the seasickness tablet worked for Tom: worth remembering for any future boat trips.',
      ],
      ['user', 'Biscuit was perfect with Dona Fernanda. She sent us photos every day of him sleeping on her sofa.'],
      [
        'assistant',
        'It is great that it worked so well. Thank her with something from the Azores if you brought anything back: a bag of local tea or some pineapple jam usually goes down well.',
      ],
      [
        'user',
        'Change of plans for Ana. She can no longer come in early October; she is coming from 24 October to 1 November instead, during the half-term holiday. And she told me she is pregnant! The baby is due in March.',
      ],
      [
        'assistant',
        'That is lovely news, congratulations to Ana! For her visit from 24 October to 1 November, a few things change: no port wine tastings for her, plenty of rest between outings, and care with food (no unpasteurised cheese, no raw or undercooked eggs, no cured meats). Porto is hilly, so plan shorter walking days and use the metro and the funicular.',
      ],
      [
        'user',
        'She still wants to see a football match. FC Porto play at home on Sunday 25 October, so that would be perfect.',
      ],
      [
        'assistant',
        'A home match on 25 October, the day after she arrives, is a great welcome. With a pregnancy, seats in a calmer section are a good idea: the family stand is quieter than behind the goals, and aisle seats make it easier to get out. Buy tickets as soon as they go on sale.',
      ],
      ['user', 'She is also lactose intolerant, which I always forget. So cheese-heavy dishes are out for her anyway.'],
      [
        'assistant',
        'Good to remember: Ana is lactose intolerant, so avoid dishes built on cream or soft cheese when you cook for her, or choose lactose-free versions. Caldo verde, bean stews, grilled vegetables and most bread are naturally fine.',
      ],
    ],
  },
  {
    date: '2026-09-09T18:50:00Z',
    turns: [
      [
        'user',
        'Bad news, good news. Our landlord is selling the Bonfim flat, so we have to move. We found a new flat in Matosinhos, five minutes from the beach. We move on 26 September.',
      ],
      [
        'assistant',
        'Moving again so soon is tiring, but Matosinhos is a lovely place to live: the beach, the seafront promenade, good markets and a direct metro line into Porto. Start packing non-essentials now, and book the moving van early for the 26th, because end-of-month Saturdays are busy.',
      ],
      [
        'user',
        'The rent is 1,020 euros, a bit more than before, but it has a small balcony and the light is much better. The deposit is two months, so 2,040 euros, and we get the old 1,800 back from the Bonfim landlord.',
      ],
      [
        'assistant',
        'A balcony and better light are worth a lot after a year of night shifts. Make sure the Bonfim landlord confirms in writing when the 1,800 euro deposit will be returned, and take dated photos of both flats on moving day.',
      ],
      [
        'user',
        'My commute changes too. From Matosinhos I take metro line A to the hospital, about 35 minutes door to door, which is fine for a 7:00 start.',
      ],
      [
        'assistant',
        'Thirty-five minutes on line A is manageable, and you will usually get a seat at that hour. The Andante monthly pass needs to cover the extra zones from Matosinhos, so check which zone pass you need before the first of October.',
      ],
      [
        'user',
        'Biscuit is going to love the beach. Dogs are allowed on part of the beach outside the summer season, I think.',
      ],
      [
        'assistant',
        'Many beaches allow dogs outside the bathing season, which generally ends in late September, but the rules differ by beach, so check the signs at the entrance. The sound of the waves may be new for him, so let him explore at his own pace, and rinse the salt and sand off his paws afterwards.',
      ],
      [
        'user',
        'The sad part is leaving Dona Fernanda. She cried when we told her. Rui does not cover Matosinhos either, so we will need a new dog walker.',
      ],
      [
        'assistant',
        'It is hard to leave a neighbour like that. You could invite her for lunch at the new place once you have settled. For a new walker or sitter in Matosinhos, ask at the nearest vet or pet shop, and arrange a couple of trial walks while you are at home so Biscuit gets to know them.',
      ],
    ],
  },
  {
    date: '2026-09-16T08:15:00Z',
    turns: [
      [
        'user',
        'I ran the 10K in Gaia on Sunday and finished in 52 minutes and 40 seconds! Well under my goal of 55, and the knee did not hurt at all.',
      ],
      [
        'assistant',
        'Congratulations, 52:40 is an excellent result, more than two minutes under your goal, and a pain-free knee is the best part. It shows the strength work with Joana has paid off.',
      ],
      ['user', 'I want a new goal. I am thinking about the Lisbon half marathon on 21 March 2027. Is that realistic?'],
      [
        'assistant',
        'Yes. Going from a 52-minute 10K to a half marathon in six months is realistic if you build gradually: one long run a week that grows by about one kilometre every week or two, one session with some faster running, and easy runs the rest of the time. Keep the strength exercises twice a week, since the longer distance puts more load on the knee.',
      ],
      [
        'user',
        'Now that I work days, I run in the evenings along the Matosinhos seafront, which is flat and perfect. About 8 km, four times a week.',
      ],
      [
        'assistant',
        'A flat seafront route is ideal for building distance. Four runs of about 8 km is a good base for a half marathon plan. Add the long run on a weekend day, and make at least one of the weekly runs truly easy, at a pace where you could chat.',
      ],
      [
        'user',
        'I also started the B1 Portuguese course at Escola Falar, again on Tuesdays with Carla. We are reading a short story by Sophia de Mello Breyner Andresen.',
      ],
      [
        'assistant',
        'Sophia de Mello Breyner Andresen is a beautiful choice; her prose is clear and her stories are short, which makes her a perfect stepping stone towards Saramago. Keep a list of new words from each story and reuse them in your writing exercises.',
      ],
    ],
  },
  {
    date: '2026-10-03T15:30:00Z',
    turns: [
      [
        'user',
        'We moved! The Matosinhos flat is lovely, but the boiler makes a loud banging noise when the hot water comes on, and Biscuit hides under the bed every time.',
      ],
      [
        'assistant',
        'Banging from a boiler or the pipes is usually air in the system or a pressure problem, and the landlord is responsible for getting it checked. Report it in writing with the date, and ask for a plumber to come. For Biscuit, give him a safe spot away from the kitchen and pair the noise with treats for now.',
      ],
      [
        'user',
        'The landlord, Senhor Costa, sent a plumber on Thursday. He bled the radiators and replaced a valve, and the banging has stopped.',
      ],
      [
        'assistant',
        'That was quick, which is a good sign about Senhor Costa. Keep the plumber’s invoice or note with your rental documents, in case the problem comes back in winter when the heating runs more.',
      ],
      [
        'user',
        'We also need internet. Tom works from home, so he needs something fast and reliable. The installation takes ten days, which is a disaster for him.',
      ],
      [
        'assistant',
        'For the ten days, a mobile hotspot with a large data plan, or a co-working space near the Matosinhos market, can bridge the gap. When you choose the contract, fibre is widely available in Matosinhos; ask about the installation date before you sign, and check the length of the contract, since many run for two years.',
      ],
      [
        'user',
        'Tom is in Berlin for his first office week from 19 to 23 October, right before Ana arrives. So I am alone with Biscuit that week.',
      ],
      [
        'assistant',
        'That week will be busy: day shifts, Biscuit on your own, and getting the flat ready for Ana. Find a walker near the new flat for midday walks while Tom is away, prepare the guest bed at the weekend before, and keep the evenings light. Tom is back on the 23rd, the day before Ana lands, which is cutting it close but workable.',
      ],
      [
        'user',
        'Dona Fernanda visited us last Sunday by metro with a cake. Biscuit went completely mad with joy when he saw her.',
      ],
      [
        'assistant',
        'That is lovely: it sounds like the move has not broken that friendship at all. A standing invitation for Sunday lunch every month or so would give her something to look forward to, and Biscuit too.',
      ],
    ],
  },
  {
    date: '2026-10-12T17:25:00Z',
    turns: [
      [
        'user',
        'Ana arrives in under two weeks. Can you help me plan her visit? She lands on Saturday 24 October in the afternoon and leaves on Sunday 1 November.',
      ],
      [
        'assistant',
        'Happily. A relaxed shape for the week: Saturday a gentle evening by the sea in Matosinhos; Sunday the FC Porto match at the Dragão; one day in the Ribeira and the riverside, with the funicular instead of the steep streets; one day trip up the Douro valley; one quiet day at home or at the beach; and a slow last day with a long lunch. Pregnant and lactose intolerant means short walks, regular meals and no wine tastings for her.',
      ],
      [
        'user',
        'I got the football tickets: two seats in the family stand for the match on Sunday 25 October, aisle seats like you suggested. Tom will stay home with Biscuit.',
      ],
      [
        'assistant',
        'Perfect. Bring water and snacks she can eat, since stadium food is mostly sausages and cheese toasties, and leave a bit before the final whistle if the crowd is a worry: the metro stations next to the stadium get very full right after the match.',
      ],
      ['user', 'For the Douro valley, is the train to Pinhão a good idea? I do not want to drive on those roads.'],
      [
        'assistant',
        'The train from São Bento to Pinhão is one of the most beautiful rail journeys in Portugal, and it follows the river for much of the way. It takes about two and a half hours each way, so leave early and sit on the right-hand side on the way up for the river views. In Pinhão you can take a short boat trip instead of a tasting, which suits Ana better.',
      ],
      [
        'user',
        'I took Wednesday to Friday off, but I have to work on Monday and Tuesday that week, from 7 to 3, and I swapped my weekend shift so I am free on Saturday 31 October.',
      ],
      [
        'assistant',
        'Then Monday and Tuesday can be the quiet days: Ana can rest, walk by the sea with Tom and Biscuit, or visit the Serralves museum and park, which is flat and calm. Save the Douro trip for Wednesday or Thursday, when you have the day off, and keep Saturday 31 for the long goodbye lunch.',
      ],
      ['user', 'Should I cook something special for her first night?'],
      [
        'assistant',
        'Something warm and simple after a flight: a vegetable caldo verde, roast potatoes with grelos and garlic, and a fruit dessert. Everything there is vegetarian, lactose-free without any changes, and free of peanuts, so you can all share the same meal. Just keep the parsley and skip the coriander for Tom.',
      ],
    ],
  },
  {
    date: '2026-11-13T18:00:00Z',
    turns: [
      [
        'user',
        'Ana’s visit was perfect. FC Porto won 2 to 0, she loved the train to Pinhão, and she cried at the view from the Serra do Pilar. She is already asking when we will visit Manchester with the baby.',
      ],
      [
        'assistant',
        'What a lovely week. A win at the Dragão, the Douro by train and the Serra do Pilar at sunset is a very good introduction to Porto. A visit to Manchester after the baby arrives in March would be something to look forward to.',
      ],
      [
        'user',
        'Biscuit got his rabies booster yesterday, on 12 November, at the new vet in Matosinhos, Dr. Teixeira. So that is done before the end of November, as planned. The passport is updated too.',
      ],
      [
        'assistant',
        'Well done: the rabies booster is done and recorded in his passport, well before the deadline. Ask Dr. Teixeira to put a reminder in her system for next year’s booster, and make sure his file there notes the chicken allergy and his anxiety, since his records from Dr. Sousa may not have come across.',
      ],
      [
        'user',
        'We also found a new dog sitter in Matosinhos, Marta. She is a vet nursing student, walks Biscuit on Tuesdays and Thursdays and can take him overnight when we travel.',
      ],
      [
        'assistant',
        'Marta sounds ideal: a vet nursing student will understand his chicken allergy and his anxiety. Giving her a written sheet with his routine, food portions, the no-chicken rule and Dr. Teixeira’s number means anyone can look after him the same way.',
      ],
      [
        'user',
        'Something scary happened at the hospital party last Friday. I ate a satay skewer that I thought was tofu in soy sauce, and it had peanut sauce. I had to use my auto-injector and spent the night in A&E.',
      ],
      [
        'assistant',
        'I am sorry, that must have been frightening, and you did exactly the right thing by using the auto-injector quickly and going to hospital. Satay sauce is one of the most common hidden sources of peanuts. Replace the injector you used straight away, so you always carry two, and ask your GP for a referral to an allergist to review your allergy plan.',
      ],
      [
        'user',
        'I saw the allergist this week. The tests showed I am also allergic to cashews, not just peanuts. So cashews are out too from now on, which rules out a lot of vegan sauces.',
      ],
      [
        'assistant',
        'That is important to know: peanuts and cashews are both out now. Cashews are common in vegan cheeses, creamy sauces, pesto variants and curries, so check labels and ask in restaurants about “caju” as well as “amendoim”. Update your allergy card to say “sou alérgica a amendoim e a caju”.',
      ],
    ],
  },
  {
    date: '2026-11-20T19:45:00Z',
    turns: [
      [
        'user',
        'Half marathon training update: my long run on Sunday was 14 km along the seafront to Leça and back, in 1 hour 22 minutes. The knee was fine, but my right calf was tight afterwards.',
      ],
      [
        'assistant',
        '14 km in 1:22 is a comfortable pace for a long run, about 5:51 per kilometre, which is exactly where long runs should be. A tight calf after a new longest distance is common; if it eases within two days, keep going, and if it gets worse or hurts while running, take a few days off and show it to Joana.',
      ],
      [
        'user',
        'Joana checked it on Wednesday. Nothing serious, just overload. She added calf raises to my exercises and said my shoes have done almost 800 km and should be replaced.',
      ],
      [
        'assistant',
        'That makes sense: at 800 km most running shoes have lost much of their cushioning, which can shift load onto the calves. Buy the new pair soon and run in them on a couple of short runs before using them for a long one. Calf raises, slow on the way down, three sets of fifteen, fit well with your other exercises.',
      ],
      [
        'user',
        'The plan is to reach 18 km by the end of January and then do a 20 km run in February, five weeks before the race on 21 March.',
      ],
      [
        'assistant',
        'That is a sensible progression. Keep the week in Leeds as an easy week, since travel and Christmas make long runs hard anyway, and plan one cut-back week every three or four weeks, with the long run two or three kilometres shorter, so the body can absorb the training.',
      ],
    ],
  },
  {
    date: '2026-11-28T10:10:00Z',
    turns: [
      [
        'user',
        'Christmas plans: we are flying to Leeds from 22 to 29 December to see my parents, and Ana will come over from Manchester for Christmas Day.',
      ],
      [
        'assistant',
        'A week in Leeds with Ana there for Christmas Day sounds lovely, and it will be her last Christmas before the baby. Book Biscuit’s care with Marta early, since sitters fill up quickly over the holidays.',
      ],
      [
        'user',
        'Marta confirmed she can take Biscuit for the whole week at her flat. She has no other pets, which is good because Biscuit gets nervous around cats.',
      ],
      [
        'assistant',
        'Perfect. Drop him off a day early if you can, so he settles before you leave, and pack his salmon kibble in daily portions, his bed, a worn T-shirt that smells of you, and his chew toys. New Year’s Eve fireworks will be after you are back, but note that he is scared of loud noises in case Marta has him on a noisy evening.',
      ],
      [
        'user',
        'Gift ideas? My dad likes gardening and history books, my mum likes baking, and I want to get Ana something for the baby.',
      ],
      [
        'assistant',
        'Some ideas with a Portuguese touch: for your dad, a book on the history of the port wine trade or the Age of Discoveries, or a set of hand-painted azulejo plant markers; for your mum, a Portuguese baking book with pastéis de nata and pão de ló recipes; for Ana, a soft baby blanket from a local textile shop, since northern Portugal is known for its cotton.',
      ],
      [
        'user',
        'What should I bake for the family? My mum always makes mince pies, and I want to bring something from Porto.',
      ],
      [
        'assistant',
        'Bolo-rei, the Portuguese Christmas cake, travels well, but it is usually full of nuts, so buy a version without nuts from a bakery you trust and ask about cross-contamination, or bake broas de mel (honey and spice biscuits) yourself with no nuts at all. Pastéis de nata are best eaten the same day, so they are a treat for your last morning in Porto rather than for the suitcase.',
      ],
      [
        'user',
        'And one work thing: I was asked to join the hospital’s training team for new nurses from January, teaching paediatric resuscitation once a month. Should I say yes?',
      ],
      [
        'assistant',
        'It sounds like recognition of your experience, and teaching once a month is a manageable commitment alongside day shifts. It would also push your Portuguese in a useful way. If you want it, say yes, and ask whether the training days replace a normal shift or come on top of your hours.',
      ],
    ],
  },
]
