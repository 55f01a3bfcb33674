import type { SampleSession } from './sample-conversation'

/**
 * The first half of the demo's sample history (written for the demo): a nurse who has just moved to Porto, from
 * arrival to the start of summer. Facts are scattered over turns and some are revised later (see the autumn half),
 * so retrieval, recent turns and `followUpdates` all have something to show.
 */
export const springSessions: SampleSession[] = [
  {
    date: '2026-03-02T09:10:00Z',
    turns: [
      [
        'user',
        'Hi! I just moved to Porto from Leeds for a new job as a night-shift nurse in the paediatric intensive care unit of the children’s hospital. I start next Monday.',
      ],
      [
        'assistant',
        'Congratulations on the move and the new job! Paediatric intensive care on nights is demanding work, so it is worth setting up your routines early: sleep, meals and some time outside in daylight. What would help most this first week?',
      ],
      [
        'user',
        'Honestly, everything. I brought my dog Biscuit, a very anxious beagle, and he hates the trams. Every time one rattles past he pulls on the lead and tries to hide behind my legs.',
      ],
      [
        'assistant',
        'Trams are loud and unpredictable for an anxious dog. Start with short walks on quiet side streets at calm times of day, reward him for looking at you instead of the noise, and only slowly bring him closer to the tram lines. Carry very small treats and keep the walks short so he finishes them relaxed rather than overwhelmed.',
      ],
      [
        'user',
        'Good idea. Can you remind me later that Biscuit needs his rabies booster before the end of November? The UK vet said his current certificate runs out then.',
      ],
      [
        'assistant',
        'Noted: Biscuit’s rabies booster is due before the end of November. Portuguese vets can give it and update his EU pet passport at the same visit, so bring the passport along. I will keep it in mind when we talk about the autumn.',
      ],
      [
        'user',
        'We are renting a small flat in Bonfim, near the Campo 24 de Agosto metro station. The deposit was 1,800 euros and the rent is 950 a month, which is more than I hoped.',
      ],
      [
        'assistant',
        'Bonfim is a good choice: it is central, still has neighbourhood cafés and grocers, and the metro gets you to most places quickly. With the deposit paid, the first two months will feel tight. It may help to list fixed costs first (rent, phone, transport, Biscuit’s food) and see what is left for everything else.',
      ],
      [
        'user',
        'I also need to learn Portuguese fast. The families on the ward speak it, obviously, and I can only say obrigada and bom dia.',
      ],
      [
        'assistant',
        'Fifteen minutes a day of spaced repetition beats one long session a week. For the ward, start with a small list of phrases you will use every shift: how a child slept, pain, fever, feeding, and how to explain that a doctor is coming. Many hospitals also run free language courses for new staff, so ask your manager.',
      ],
      [
        'user',
        'I will ask. My partner Tom came with me. He is a software developer and works remotely for a company in Berlin, so at least one of us keeps normal hours.',
      ],
      [
        'assistant',
        'That is a real advantage: Tom can be home during the day for Biscuit while you sleep after a night shift. It may be worth agreeing on quiet hours in the flat, and blackout curtains for the bedroom will make a big difference to your day sleep.',
      ],
    ],
  },
  {
    date: '2026-03-09T18:30:00Z',
    turns: [
      [
        'user',
        'Cooking question. I am vegetarian and seriously allergic to peanuts, so I carry two adrenaline auto-injectors. Cooking local food feels tricky because so much of it is meat or fish.',
      ],
      [
        'assistant',
        'Portuguese cooking has more vegetarian dishes than its reputation suggests. Caldo verde is easy to make without the chorizo: potatoes, onion, garlic, finely sliced couve and good olive oil. Bean stews, açorda with eggs instead of seafood, and grilled vegetables with migas are all good. For the peanut allergy, the main risk is in snacks and desserts rather than traditional dishes, but always ask about oils in fried food.',
      ],
      [
        'user',
        'Tom eats everything but he really hates coriander. He says it tastes like soap. Which is a problem because half the recipes here use coentros.',
      ],
      [
        'assistant',
        'Coriander tasting of soap is a genuine genetic thing, so there is no point trying to convert him. In most Portuguese recipes flat-leaf parsley works as a substitute, and in açorda you can use mint with a little parsley. When you eat out, “sem coentros, por favor” is a useful phrase to learn early.',
      ],
      [
        'user',
        'What about the francesinha everyone talks about? It looks like a sandwich buried under meat and cheese.',
      ],
      [
        'assistant',
        'A classic francesinha is layered with ham, sausage and steak under melted cheese and a beer and tomato sauce, so it is hard to make vegetarian in a restaurant. Some places in Porto now offer a vegetarian version with mushrooms, grilled vegetables or a plant-based steak. At home you can make one with portobello mushrooms and smoked tofu; just check that the sauce is not thickened with anything containing nuts.',
      ],
      [
        'user',
        'I found the Bolhão market yesterday. It is beautiful. A woman at a vegetable stall gave me a bunch of turnip greens and told me to make grelos with garlic.',
      ],
      [
        'assistant',
        'Grelos salteados are a perfect first recipe: blanch the turnip greens for two minutes, then fry them briefly in olive oil with plenty of sliced garlic and a pinch of salt. They go well with roast potatoes and a fried egg. The Bolhão market is also a good place to buy fresh herbs, beans and cheese, and stallholders are usually happy to explain how they cook things.',
      ],
      [
        'user',
        'One more thing for the allergy: how do I say I am allergic to peanuts in Portuguese? I want to be able to say it in restaurants without fumbling.',
      ],
      [
        'assistant',
        '“Sou alérgica a amendoim” means “I am allergic to peanuts”. You can add “é uma alergia grave” (it is a serious allergy) and ask “isto tem amendoim ou óleo de amendoim?” (does this contain peanuts or peanut oil?). A small card with these sentences written on it is handy for noisy places.',
      ],
    ],
  },
  {
    date: '2026-03-21T11:00:00Z',
    turns: [
      [
        'user',
        'Biscuit update. He is howling when we leave him alone, and a neighbour complained. Tom had to go to a meeting at a co-working space on Thursday and Biscuit howled for an hour.',
      ],
      [
        'assistant',
        'That sounds like separation anxiety, which is common after a move. Practise very short absences first (a minute, then five, then fifteen), give him a long-lasting chew or a stuffed food toy only when you leave, and keep departures and returns low-key. If it does not improve in a few weeks, a vet can check whether anti-anxiety support would help.',
      ],
      [
        'user',
        'We found a dog walker called Rui. He takes Biscuit out on Tuesdays and Thursdays at lunchtime for 12 euros a walk, and Biscuit seems to like him.',
      ],
      [
        'assistant',
        'That is a good arrangement: a midday walk on the days Tom is out breaks up the time alone, and a familiar person helps an anxious dog settle. It might be worth asking Rui to walk the same quiet route each time at first, so Biscuit learns what to expect.',
      ],
      [
        'user',
        'We also registered with a vet, Dr. Sousa, in a small clinic near the Bolhão market. She has evening hours on Wednesdays, which works with my shifts.',
      ],
      [
        'assistant',
        'Evening hours are ideal when you work nights. When you next see Dr. Sousa, ask her to note the rabies booster date in Biscuit’s file, and bring up the howling: she may know local trainers who work with anxious dogs.',
      ],
      [
        'user',
        'She also confirmed that Biscuit is allergic to chicken, which explains his itchy ears. He is now on a salmon-based kibble, which is not cheap.',
      ],
      [
        'assistant',
        'Good to know: no chicken for Biscuit, including chicken-flavoured treats, which are very common. Salmon or lamb treats are the safe choice. Buying the salmon kibble in the largest bag and storing it in an airtight container usually brings the cost per day down noticeably.',
      ],
      ['user', 'What treats can I use for training then? Everything in the pet shop seems to be chicken.'],
      [
        'assistant',
        'Small cubes of cheese (in moderation), pieces of his own salmon kibble taken from his daily ration, freeze-dried fish, or tiny pieces of cooked carrot all work. Using part of his daily food as rewards is the easiest way to avoid extra calories, since beagles put on weight easily.',
      ],
    ],
  },
  {
    date: '2026-03-28T13:20:00Z',
    turns: [
      [
        'user',
        'Paperwork question. I have my NIF tax number already, but I still need a número de utente for the health service and a Portuguese bank account for my salary.',
      ],
      [
        'assistant',
        'With the NIF done, the rest is easier. The número de utente is requested at the health centre (centro de saúde) for your address: bring your passport, NIF, proof of address and your work contract. For the bank account, most banks want the same documents; ask the hospital’s HR office which bank they use, since some offer salary accounts without monthly fees.',
      ],
      [
        'user',
        'My nursing registration with the Ordem dos Enfermeiros is still pending. HR says I can work under supervision until it comes through, but it has been six weeks.',
      ],
      [
        'assistant',
        'Six weeks is not unusual for a registration from abroad, especially when documents have to be checked by the professional body. It is worth sending a short, polite email asking whether anything is missing from your file, with your application number, and keeping copies of every certificate you sent. HR may also be able to ask on your behalf.',
      ],
      [
        'user',
        'Also, my UK driving licence. Do I need to exchange it? I do not have a car, but Tom might want to rent one sometimes.',
      ],
      [
        'assistant',
        'As a resident you are generally expected to exchange a UK licence for a Portuguese one within a set period after becoming resident, and rules for UK licences changed after Brexit, so check the current deadline on the IMT website or at an IMT office. Renting a car as a visitor is usually fine with a UK licence, but as a resident an unexchanged licence can cause trouble with insurance.',
      ],
      ['user', 'Last question: Tom and I are not married. Does that matter for anything here, like his residence?'],
      [
        'assistant',
        'It can matter for residence permits and some tax rules, because unmarried partners often need to prove a stable relationship (a registered união de facto) to be treated as a couple. Since Tom works remotely for a German company, his own residence route may be separate from yours anyway. An immigration lawyer or the AIMA agency can tell you which route fits your situation.',
      ],
    ],
  },
  {
    date: '2026-04-04T07:45:00Z',
    turns: [
      [
        'user',
        'I run every morning after my shift, around 7 km along the Douro river towards Foz, but my left knee has started to hurt, especially going down stairs.',
      ],
      [
        'assistant',
        'Knee pain after runs, worse on stairs, is often about load: running more or on harder surfaces than your knee is used to, and after a night shift your body is also tired. Try reducing to 5 km for two weeks, avoid steep downhill sections, and check that your shoes still have cushioning. If it persists, a physiotherapist can find the cause.',
      ],
      [
        'user',
        'I booked a physiotherapist. Her name is Joana and she works at a clinic near the Marquês garden. She thinks it is patellofemoral pain, the kind runners get when the hip muscles are weak.',
      ],
      [
        'assistant',
        'Patellofemoral pain usually responds well to strengthening. Expect exercises for the hips and thighs, such as clamshells, side-lying leg raises, step-downs and wall sits, and a temporary cut in running volume. Most people get back to their usual distance within a couple of months if they do the exercises consistently.',
      ],
      [
        'user',
        'Yes, she gave me clamshells, step-downs and single-leg bridges, three sets of fifteen every other day. I am allowed to run 5 km three times a week for now.',
      ],
      [
        'assistant',
        'That is a sensible plan. Doing the exercises right after a run, or at a fixed time before bed, makes them easier to keep up. Note how the knee feels the morning after each run on a scale of 0 to 10; if it stays at 3 or below, the load is fine.',
      ],
      [
        'user',
        'I signed up for a 10K race on 13 September in Gaia, along the river. My goal is to finish under 55 minutes.',
      ],
      [
        'assistant',
        'Under 55 minutes for 10K is a realistic goal with five months to go, even with the knee. Build back to 7 km first, add one steady longer run at the weekend, and only add faster sessions once the knee has been pain-free for a few weeks. I can help you plan the weeks when you are ready.',
      ],
      ['user', 'Running after a night shift is hard though. Sometimes I am so tired that my legs feel like concrete.'],
      [
        'assistant',
        'That is normal: after a night shift your body is at the lowest point of its daily rhythm. An easy run straight after work can help you wind down, but keep it gentle, eat something small first, and save harder runs for your days off, when you have slept properly.',
      ],
    ],
  },
  {
    date: '2026-04-18T20:15:00Z',
    turns: [
      [
        'user',
        'The hospital does offer Portuguese classes! I started a course at a language school in Baixa called Escola Falar, on Tuesday evenings, with a teacher called Carla.',
      ],
      [
        'assistant',
        'Excellent. A weekly class with a teacher gives you structure and correction, and your daily spaced repetition fills the gaps. Tuesday evening works well if you are not on shift that night. Tell Carla about your job: teachers like tailoring examples, and hospital vocabulary will help you most.',
      ],
      [
        'user',
        'Carla wants me to take the A2 exam in June. It is called CAPLE and it has reading, writing, listening and speaking parts.',
      ],
      [
        'assistant',
        'An A2 exam in June is a good target: it gives your practice a shape. For the speaking part, practise describing your daily routine, your job and your neighbourhood out loud. For listening, Portuguese radio and slow-news podcasts help you get used to European Portuguese, which swallows its vowels.',
      ],
      [
        'user',
        'By the way, my favourite author is José Saramago and I want to read Blindness in the original Portuguese one day. It is called Ensaio sobre a Cegueira.',
      ],
      [
        'assistant',
        'That is a lovely long-term goal, and a demanding one: Saramago writes long sentences with very little punctuation. A path that works for many learners is graded readers first, then Saramago’s shorter texts and chronicles, and then the novel, ideally alongside the English translation you already know.',
      ],
      [
        'user',
        'The hardest part is the families on the ward. They speak so fast, and they are worried, so they do not slow down.',
      ],
      [
        'assistant',
        'That is completely understandable, and families usually appreciate any effort. It helps to learn phrases that ask for repetition politely: “pode repetir mais devagar, por favor?” (could you repeat more slowly, please?) and “deixe-me chamar uma colega” (let me call a colleague). For anything clinical, always use the hospital’s interpreter service rather than guessing.',
      ],
      [
        'user',
        'Another thing: I get homesick on my nights off. My sister Ana lives in Manchester and we used to see each other every weekend.',
      ],
      [
        'assistant',
        'Homesickness after a big move is very common, especially with shift work that makes social life harder. A regular video call with Ana at a fixed time can help, and planning her first visit gives you both something to look forward to. Is she likely to come over this year?',
      ],
      [
        'user',
        'She says she will come in October. She is a primary school teacher, so she can only travel in the school holidays. She loves football and wants to see a match at the Dragão stadium.',
      ],
      [
        'assistant',
        'October sounds lovely in Porto, and a match at the Dragão is a great thing to plan around. Tickets for league matches usually go on sale about two weeks before, and earlier for big games, so once Ana knows her dates you can check the fixture list.',
      ],
    ],
  },
  {
    date: '2026-05-10T14:00:00Z',
    turns: [
      [
        'user',
        'Money talk. My net salary is about 1,650 euros a month. After rent, transport and bills, there is not much left, and Tom and I want to go to the Azores this summer.',
      ],
      [
        'assistant',
        'With 950 of rent, the Azores trip needs a plan. A simple approach: move a fixed amount, say 150 euros, into a separate savings account on payday before you can spend it, and book flights early, since prices to Ponta Delgada rise a lot in summer. Free activities in Porto help too: the Crystal Palace gardens, the riverside walk, and the museums that are free on Sunday mornings.',
      ],
      [
        'user',
        'I do not have a car, I use the metro and buses with an Andante card. The monthly pass is much cheaper than paying per trip.',
      ],
      [
        'assistant',
        'The monthly Andante pass is one of the best deals in Porto if you commute every day. It also covers trips to the beach at Matosinhos, which makes a nice free day out with Biscuit once the weather warms up.',
      ],
      [
        'user',
        'Tom’s birthday is on 2 June. I have no idea what to get him. He loves old jazz records, especially Chet Baker, and he started bouldering at a climbing gym in Boavista.',
      ],
      [
        'assistant',
        'Some ideas within a tight budget: a second-hand Chet Baker record from one of the record shops in Baixa (original pressings are expensive, but good reissues are not), a ten-entry pass for his climbing gym, a chalk bag, or dinner somewhere special. A record plus a handwritten note is often remembered longer than something expensive.',
      ],
      ['user', 'Is there a vegetarian restaurant that would feel special? Not just a salad place.'],
      [
        'assistant',
        'Porto has several vegetarian and vegan restaurants with proper tasting menus now. When you book, mention the peanut allergy in the reservation and again when you arrive, and ask whether the kitchen uses nut-based sauces or oils, which are more common in modern vegetarian cooking than in traditional food.',
      ],
      [
        'user',
        'I am also trying to cook more at home to save money. I can do big batches on my days off and freeze portions for the nights.',
      ],
      [
        'assistant',
        'Batch cooking is perfect for night shifts. Lentil and vegetable soups, chickpea curries made without peanuts or cashews, bean stews and baked pasta all freeze well. Label each box with the date, and keep one easy, warming meal ready for the morning after a hard shift.',
      ],
    ],
  },
  {
    date: '2026-05-23T09:40:00Z',
    turns: [
      [
        'user',
        'Rough week at work. I do four nights on and three off, and the second night this week a baby with bronchiolitis got much worse at three in the morning. We managed, but I did not sleep at all the next day.',
      ],
      [
        'assistant',
        'That sounds like a very hard night, and it is normal not to be able to sleep after one like it. Something calm between work and bed helps: a short walk in daylight, a shower, writing down what happened so your mind can put it aside. If a shift keeps coming back to you, talk to your charge nurse or the hospital’s staff support service.',
      ],
      [
        'user',
        'My mentor on the ward, Beatriz, was amazing. She has been a PICU nurse for twenty years and she translates for me when the doctors speak too fast during handover.',
      ],
      [
        'assistant',
        'A mentor like Beatriz is worth a lot in your first months. You could ask her to go through the handover vocabulary with you once a week: the same phrases come back every shift, and knowing them well will make you much more confident.',
      ],
      [
        'user',
        'How do I sleep better after nights? I go to bed at nine in the morning and wake up at one, then I cannot fall asleep again.',
      ],
      [
        'assistant',
        'Four hours is too short for recovery. Things that help most: blackout curtains or an eye mask, earplugs or white noise against daytime street noise, a cool room, no caffeine in the last four hours of your shift, and sunglasses on the way home so the morning light does not wake your brain up. Some people do better with a second short sleep in the afternoon before the next night.',
      ],
      ['user', 'I drink a lot of coffee on nights, maybe four espressos. Is that bad?'],
      [
        'assistant',
        'Four espressos over a night is not dangerous for most people, but timing matters more than the amount. Have them in the first half of the shift and stop around 3 a.m., so the caffeine is mostly gone by the time you go to bed. Water and a proper meal around 1 a.m. help keep your energy up without it.',
      ],
      [
        'user',
        'Beatriz also invited us to her house in Gaia for lunch on Sunday. What do I bring? I know nothing about Portuguese etiquette.',
      ],
      [
        'assistant',
        'Bringing something is appreciated: a good bottle of wine, a box of pastries from a well-known bakery, or flowers for the host. Arrive a little after the time you were given rather than early, and expect lunch to last most of the afternoon. Tell Beatriz about your vegetarian diet and the peanut allergy in advance, so she is not caught out.',
      ],
    ],
  },
  {
    date: '2026-06-03T10:20:00Z',
    turns: [
      [
        'user',
        'Tom’s birthday was a success! I found a 1950s reissue of Chet Baker Sings in a shop on Rua do Almada, and we had dinner at a vegetarian place called Horta Viva. The staff were brilliant about my allergy.',
      ],
      [
        'assistant',
        'That sounds like a lovely evening, and it is good to know Horta Viva handled the allergy well: a place you trust is worth remembering for future celebrations.',
      ],
      [
        'user',
        'Knee update too. Joana says the knee is much better. I can run 6 km now, four times a week, and I still do the clamshells and step-downs.',
      ],
      [
        'assistant',
        'Great progress. Going from 5 km three times a week to 6 km four times a week is a solid step. Keep the strength exercises going even when the knee feels fine: stopping them is the most common reason the pain comes back. From here, increase your weekly distance by about ten percent at most.',
      ],
      [
        'user',
        'I took the CAPLE A2 exam last week. The speaking part went well, the listening part was awful. Results come in three weeks.',
      ],
      [
        'assistant',
        'Listening is the hardest part of European Portuguese for almost everyone, so do not read too much into how it felt. Whatever the result, you have made real progress in three months. Keep the daily practice going while you wait.',
      ],
      [
        'user',
        'Also, a colleague invited me to the São João festival on the night of the 23rd. Apparently people hit each other on the head with plastic hammers?',
      ],
      [
        'assistant',
        'Yes, São João is Porto’s biggest night: people crowd the streets, hit each other gently on the head with plastic hammers, grill sardines and release paper balloons, and there are fireworks over the river at midnight. It is very crowded and very loud, so Biscuit should definitely stay at home, ideally with someone, the music on and the windows closed.',
      ],
      ['user', 'Are there vegetarian options there? It sounds like sardines everywhere.'],
      [
        'assistant',
        'Sardines dominate, but you will find grilled corn, bread with chouriço-free fillings, caldo verde without the sausage if you ask, and plenty of sweets. Be careful with the sweets and snacks sold from stalls: labels are rare, so it is safest to bring something you know is peanut-free and keep your auto-injectors with you.',
      ],
    ],
  },
  {
    date: '2026-06-24T16:40:00Z',
    turns: [
      [
        'user',
        'Big news: from July I am moving from nights to day shifts! My new hours are 7:00 to 15:00, Monday to Friday, with one weekend in four.',
      ],
      [
        'assistant',
        'That is a big change for the better: regular sleep, evenings with Tom and more time for Portuguese. The first week of a switch from nights to days is tiring, so go to bed early, get light in the morning, and avoid napping late in the afternoon.',
      ],
      [
        'user',
        'It also means I will run in the evenings now, not after my shift in the morning. And the dog walker changes: Rui will only come on Thursdays, because I am home by four.',
      ],
      [
        'assistant',
        'That makes sense. Evening runs after a day shift are usually easier on the body than runs after a night. One midday walk a week with Rui keeps Biscuit in touch with him, which will help if you ever need him more often again.',
      ],
      [
        'user',
        'And I passed the A2 exam with 78 percent! Carla was so happy. She says I should start the B1 course in September.',
      ],
      [
        'assistant',
        'Congratulations, 78 percent is a very good result, especially after only a few months in the country. Starting B1 in September gives you the summer to consolidate: keep reading, listening and speaking a little every day so you do not lose momentum.',
      ],
      [
        'user',
        'The São João night was amazing by the way. I got hit on the head about two hundred times. Biscuit stayed with our upstairs neighbour, Dona Fernanda, who adores him.',
      ],
      [
        'assistant',
        'It sounds like the full São João experience. Having Dona Fernanda as someone Biscuit trusts is valuable: a neighbour who likes him and lives upstairs is the easiest possible dog sitter for evenings and short trips.',
      ],
      ['user', 'She even offered to take him when we go to the Azores in August. She used to have a beagle herself.'],
      [
        'assistant',
        'That is a wonderful offer. Before you go, leave her his salmon kibble measured out in daily portions, a note about the chicken allergy, your vet’s number (Dr. Sousa), and his favourite toy. A short trial night before the trip would let Biscuit get used to staying with her.',
      ],
    ],
  },
]
