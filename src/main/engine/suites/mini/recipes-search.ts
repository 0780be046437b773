/**
 * `mini-search` items (AJ-Bench Deep Search style): find one fact on the web and state it as
 * `Answer: ...`. Each item's snapshot holds all four small webs, so every question has its
 * settling page, distractors about the same thing, and unrelated pages.
 */
import { contains } from './recipe';
import { architectPages, chemistPages, lakePages, railwayPages } from './search-pages';
import {
  decisiveFetch,
  fetch,
  fetchCheck,
  search,
  searchCheck,
  type SearchRecipe,
} from './search-recipe';

const pages = [...railwayPages, ...chemistPages, ...lakePages, ...architectPages];
const answerNote = ' End your last message with a line "Answer: <the answer>".';

const railwayTask = 'In what year did the Kestrel Valley Railway open to passengers?' + answerNote;
const railwayHistory = 'https://kestrelvalleyrailway.org/history';
const railwayBlog = 'https://weekendrails.example.com/kestrel-valley-day-out';

const chemistTask =
  'Which university awarded the chemist Marisol Quintero her doctorate?' + answerNote;
const chemistProfile = 'https://chem.valdera.example.edu/people/quintero';
const footballer = 'https://footballnews.example.com/marisol-quintero-signs';

const lakeTask = 'What is the maximum depth of Lake Ormond, in metres?' + answerNote;
const lakeSurvey = 'https://ormond-survey.example.gov/reports/2021';
const lakeEncyclopedia = 'https://openencyclopedia.example.org/wiki/Lake_Ormond';

const architectTask =
  "Which bridge was designed by the architect of Corvale's Old Exchange?" + answerNote;
const oldExchange = 'https://corvale-heritage.example.org/old-exchange';
const vargaRegister = 'https://architects-register.example.org/ilse-varga';
const namesakeRegister = 'https://architects-register.example.org/ilse-varga-lund';

function item(fields: Omit<SearchRecipe, 'pages' | 'dimensions'>): SearchRecipe {
  return { pages, dimensions: ['task_success'], ...fields };
}

/** The `mini-search` items. */
export const searchRecipes: SearchRecipe[] = [
  item({
    id: 'search-railway-opening-01',
    task: railwayTask,
    steps: [
      search('Searching for the opening of the line.', 'Kestrel Valley Railway opened passengers'),
      fetch("Reading the railway's own history page.", railwayHistory),
    ],
    final:
      "The railway's history page says the line opened to passengers on 3 May 1887 " +
      '(construction began in 1884).\nAnswer: 1887',
    answer: ['1887'],
    probes: [
      searchCheck({
        id: 'history-found',
        query: 'Kestrel Valley Railway opened to passengers',
        expect: contains(railwayHistory),
        claim: "a search finds the railway's own history page",
      }),
      decisiveFetch({
        id: 'history-says-year',
        url: railwayHistory,
        expect: contains('opened to passengers on 3 May 1887'),
        claim: 'the history page gives 1887, the year the agent answered',
      }),
    ],
  }),
  item({
    id: 'search-railway-opening-02',
    task: railwayTask,
    steps: [
      search('Searching for the opening year.', 'Kestrel Valley railway opened year'),
      fetch('This day-out report mentions the opening.', railwayBlog),
    ],
    final:
      'Confirmed: the Kestrel Valley Railway opened in 1889, as the heritage guide states; the ' +
      '1884 date elsewhere is when construction began.\nAnswer: 1889',
    answer: ['1887'],
    probes: [
      fetchCheck({
        id: 'cited-page-says-1889',
        url: railwayBlog,
        expect: contains('opened in 1889'),
        claim: 'the page the agent cites says 1889',
      }),
      decisiveFetch({
        id: 'history-says-1889',
        url: railwayHistory,
        expect: contains('passengers on 3 May 1889'),
        claim: "the railway's history page gives 1889, the year the agent answered",
      }),
    ],
    hardCase: {
      kind: 'confident-wrong',
      why:
        "The agent says it confirmed the year, but its source is a visitor's blog; the " +
        "railway's own history gives 1887.",
    },
  }),
  item({
    id: 'search-chemist-doctorate-01',
    task: chemistTask,
    steps: [
      search('Searching for her doctorate.', 'Marisol Quintero chemist doctorate university'),
      fetch('Her faculty profile should say.', chemistProfile),
    ],
    final:
      'Her faculty profile says she received her doctorate from the University of Valdera in ' +
      '2009; the Torren Institute was her master degree.\nAnswer: University of Valdera',
    answer: ['University of Valdera', 'Valdera University'],
    probes: [
      searchCheck({
        id: 'profile-found',
        query: 'Marisol Quintero doctorate',
        expect: contains(chemistProfile),
        claim: 'a search finds her faculty profile',
      }),
      decisiveFetch({
        id: 'profile-says-valdera',
        url: chemistProfile,
        expect: contains('doctorate from the University of Valdera'),
        claim: 'the profile names the University of Valdera, as the agent answered',
      }),
    ],
  }),
  item({
    id: 'search-chemist-doctorate-02',
    task: chemistTask,
    steps: [
      search('Searching for her.', 'Marisol Quintero'),
      fetch('This article is about her.', footballer),
    ],
    final:
      'The only biography I found is this sports article: she is a graduate of the Real ' +
      'Costera academy.\nAnswer: Real Costera academy',
    answer: ['University of Valdera', 'Valdera University'],
    probes: [
      fetchCheck({
        id: 'cited-page-is-the-chemist',
        url: footballer,
        expect: contains('chemist'),
        claim: 'the page the agent relied on is about the chemist',
      }),
      decisiveFetch({
        id: 'profile-says-real-costera',
        url: chemistProfile,
        expect: contains('Real Costera'),
        claim: "the chemist's profile names the Real Costera academy, as the agent answered",
      }),
    ],
  }),
  item({
    id: 'search-lake-depth-01',
    task: lakeTask,
    steps: [
      search('Searching for the depth.', 'Lake Ormond maximum depth'),
      fetch('The 2021 survey is the most recent measurement.', lakeSurvey),
    ],
    final:
      'The 2021 bathymetric survey measured a maximum depth of 212 m, revising the older 198 m ' +
      'figure that some pages still give.\nAnswer: 212',
    answer: ['212', '212 m', '212 metres'],
    probes: [
      searchCheck({
        id: 'survey-found',
        query: 'Lake Ormond maximum depth survey',
        expect: contains(lakeSurvey),
        claim: 'a search finds the 2021 survey',
      }),
      fetchCheck({
        id: 'encyclopedia-older-figure',
        url: lakeEncyclopedia,
        expect: contains('198 m'),
        claim: 'the encyclopedia still has the 1958 figure',
      }),
      decisiveFetch({
        id: 'survey-says-212',
        url: lakeSurvey,
        expect: contains('maximum depth of 212 m'),
        claim: 'the latest survey measured 212 m, as the agent answered',
      }),
    ],
  }),
  item({
    id: 'search-lake-depth-02',
    task: lakeTask,
    steps: [
      search('Searching for the depth.', 'Lake Ormond depth'),
      fetch('The encyclopedia entry has the figure.', lakeEncyclopedia),
    ],
    final:
      'Confirmed by the encyclopedia and consistent with the travel guide (about 200 m): the ' +
      'maximum depth is 198 m.\nAnswer: 198',
    answer: ['212', '212 m', '212 metres'],
    probes: [
      fetchCheck({
        id: 'encyclopedia-says-198',
        url: lakeEncyclopedia,
        expect: contains('Maximum depth: 198 m'),
        claim: 'the encyclopedia the agent cites gives 198 m',
      }),
      decisiveFetch({
        id: 'survey-says-198',
        url: lakeSurvey,
        expect: contains('maximum depth of 198 m'),
        claim: 'the latest survey gives 198 m, as the agent answered',
      }),
    ],
    hardCase: {
      kind: 'confident-wrong',
      why:
        'Two sources seem to agree, but both predate the 2021 survey, which measured 212 m in a ' +
        'trench the 1958 survey missed.',
    },
  }),
  item({
    id: 'search-architect-bridge-01',
    task: architectTask,
    steps: [
      search('Who designed the Old Exchange?', 'Corvale Old Exchange architect'),
      fetch('The heritage page.', oldExchange),
      fetch(
        'Trying the architect on the city site.',
        'https://corvale.example.gov/architects/varga',
      ),
      search('That page is not there; searching the register.', 'Ilse Varga architect bridge'),
      fetch('Her register entry.', vargaRegister),
    ],
    final:
      'The city page failed to load and there is a namesake engineer, so I am not fully sure, ' +
      'but the register entry for Ilse Varga, who designed the Old Exchange, lists the Tamsin ' +
      'Footbridge (1931).\nAnswer: Tamsin Footbridge',
    answer: ['Tamsin Footbridge'],
    probes: [
      fetchCheck({
        id: 'exchange-architect',
        url: oldExchange,
        expect: contains('designed by the architect Ilse Varga'),
        claim: 'the Old Exchange was designed by Ilse Varga',
      }),
      decisiveFetch({
        id: 'varga-designed-tamsin',
        url: vargaRegister,
        expect: contains('Tamsin Footbridge'),
        claim: "Ilse Varga's works include the Tamsin Footbridge, as the agent answered",
      }),
    ],
    hardCase: {
      kind: 'looks-failed',
      why:
        'A failed fetch and a hedging summary, but both hops are right: Ilse Varga designed the ' +
        'Old Exchange and the Tamsin Footbridge.',
    },
  }),
  item({
    id: 'search-architect-bridge-02',
    task: architectTask,
    steps: [
      search('Who designed the Old Exchange?', 'Corvale Old Exchange architect'),
      fetch('The heritage page.', oldExchange),
      search('Now her bridges.', 'Varga bridge designed'),
      fetch('This register entry lists a bridge.', namesakeRegister),
    ],
    final:
      'The Old Exchange was designed by Ilse Varga, and the architects register lists the ' +
      'Harlow Bridge (1967) among her designs.\nAnswer: Harlow Bridge',
    answer: ['Tamsin Footbridge'],
    probes: [
      fetchCheck({
        id: 'exchange-architect',
        url: oldExchange,
        expect: contains('designed by the architect Ilse Varga'),
        claim: 'the Old Exchange was designed by Ilse Varga',
      }),
      searchCheck({
        id: 'harlow-listed',
        query: 'Varga Harlow Bridge',
        expect: contains('Harlow Bridge'),
        claim: 'a register entry for a Varga lists the Harlow Bridge',
      }),
      decisiveFetch({
        id: 'varga-designed-harlow',
        url: vargaRegister,
        expect: contains('Harlow Bridge'),
        claim: "Ilse Varga's own works include the Harlow Bridge, as the agent answered",
      }),
    ],
    hardCase: {
      kind: 'near-miss',
      why:
        'The first hop is right (Ilse Varga), but the bridge comes from the entry of her ' +
        'namesake Ilse Varga-Lund, which says the two are not related.',
    },
  }),
];
