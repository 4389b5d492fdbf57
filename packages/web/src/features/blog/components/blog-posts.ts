export interface BlogPost {
  question: string;
  answer: string[];
}

/** The four questions and answers of the Blog page. */
export const blogPosts: BlogPost[] = [
  {
    question: 'What are the different ways to manage state in a React application?',
    answer: [
      'Local state lives inside one component with useState or useReducer; it is the right place for what only that component needs, such as whether a menu is open.',
      'State shared by a subtree can be lifted to the closest common parent and passed down as props, or provided through a context when many levels need it.',
      'Data that comes from a server is better held by a data-fetching cache such as TanStack Query, which handles loading, errors, caching and refetching. The URL itself is state too: route and search parameters keep a page shareable.',
      'For large client-side state, stores such as Redux Toolkit, Zustand or Jotai keep updates predictable and let components subscribe to just the slice they read.',
    ],
  },
  {
    question: 'How does prototypal inheritance work?',
    answer: [
      'Every JavaScript object has an internal link to another object, its prototype. When a property is not found on the object itself, the engine looks it up on the prototype, then on the prototype’s prototype, and so on until it reaches null.',
      'Functions used as constructors give the objects they create their prototype property as prototype, which is how methods are shared between instances. The class syntax is a clearer way to write the same mechanism; Object.create(proto) links a new object to any prototype directly.',
    ],
  },
  {
    question: 'What is a unit test? Why should we write unit tests?',
    answer: [
      'A unit test checks the smallest testable part of a program, such as one function or one component, in isolation from the rest of the system.',
      'Unit tests catch mistakes early, when they are cheapest to fix; they document how a piece of code is meant to be used; and they let a team change and refactor code with confidence, because a broken behaviour shows up as a failing test within seconds.',
    ],
  },
  {
    question: 'React vs. Angular vs. Vue?',
    answer: [
      'React is a library for building user interfaces from components; routing, data fetching and forms come from the wider ecosystem, which gives freedom and asks for choices.',
      'Angular is a complete framework written in TypeScript, with dependency injection, routing, forms and an HTTP client built in; it suits large teams that value one prescribed way of working.',
      'Vue sits in between: an approachable, progressive framework with single-file components and reactive data, an official router and store, and a gentle learning curve.',
    ],
  },
];
