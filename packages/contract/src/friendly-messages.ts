import { conditions } from './enums.ts';
import { messages } from './messages.ts';
import { addProductTexts } from './search-texts.ts';

/**
 * The label people know each request field by. The API's validation messages start with the
 * field's name ("phoneNumber is required", "id: must be a valid id"); the web app shows them with
 * the label instead ("Phone number is required"). The specification's own messages start with no
 * field name, so they pass through exactly as written.
 */
export const fieldLabels = {
  name: 'Name',
  email: 'Email',
  password: 'Password',
  image: 'Photo',
  categoryId: 'Category',
  categoryName: 'Category name',
  description: 'Description',
  condition: 'Condition',
  productName: 'Product name',
  yearsOfUsedProduct: 'Years of use',
  originalPrice: 'Original price',
  resalePrice: 'Re-sale price',
  phone: 'Phone number',
  phoneNumber: 'Phone number',
  location: 'Location',
  photos: 'Photos',
  widthCm: 'Width',
  depthCm: 'Depth',
  heightCm: 'Height',
  minPrice: 'Lowest price',
  maxPrice: 'Highest price',
  yearsUsed: 'Years of use',
  q: 'Search words',
  spaceWidth: 'Width of the space',
  spaceDepth: 'Depth of the space',
  spaceHeight: 'Height of the space',
  doorWidth: 'Doorway width',
  doorHeight: 'Doorway height',
  reason: 'Reason',
  note: 'Note',
  rating: 'Stars',
  text: 'Text',
} as const satisfies Record<string, string>;

/** The labels looked up by a field name the API sent. */
const labelOf: Readonly<Record<string, string>> = fieldLabels;

/** Whole messages whose plain-language version is not their field's label plus the rule. */
const rewordings: Readonly<Record<string, string>> = {
  'must be a valid id': 'This link does not lead to anything we have. Check the address.',
  [`condition must be one of ${conditions.join(', ')}`]: addProductTexts.conditionRequired,
};

/** A validator's own wording ("Invalid input: expected number, received string"), which says nothing to a person. */
const VALIDATOR_WORDING = /^Invalid\b|\bexpected\b.*\breceived\b|^Too (big|small)\b/i;

/** What a validator's own wording becomes: the field's label when known. */
export const plainValidation = {
  field: (label: string) => `${label} does not look right. Check it and try again.`,
  unknown: 'Something here does not look right. Check it and try again.',
} as const;

/** The specification's fixed messages: shown exactly as written. */
const specificationMessages = new Set<string>(Object.values(messages).filter((value) => typeof value === 'string'));

/** A validation message as a person should read it: their field's label, not the request's field name. */
export function friendlyMessage(message: string): string {
  const reworded = rewordings[message];
  if (reworded) return reworded;
  // "field: rule": the API names the field first when its message does not.
  const prefixed = /^([A-Za-z.]+): (.+)$/s.exec(message);
  if (prefixed) {
    const [, field, rule] = prefixed as unknown as [string, string, string];
    const label = Object.hasOwn(labelOf, field) ? labelOf[field] : undefined;
    if (specificationMessages.has(rule)) return rule;
    if (VALIDATOR_WORDING.test(rule)) return label ? plainValidation.field(label) : plainValidation.unknown;
    if (label && /^[a-z]/.test(rule) && !rule.startsWith(`${field} `)) return `${label} ${rule}`;
    // A rule that is a sentence of its own ("Say why, in a few words.") or that names its field again reads alone.
    return friendlyMessage(rule);
  }
  if (VALIDATOR_WORDING.test(message)) return plainValidation.unknown;
  // "field rule"
  const leading = /^([A-Za-z]+) (.+)$/s.exec(message);
  if (leading && Object.hasOwn(labelOf, leading[1]!)) return `${labelOf[leading[1]!]} ${friendlyRest(leading[2]!)}`;
  return message;
}

/** The rest of a message after its field: a further field it names ("… than maxPrice") by its label too. */
function friendlyRest(rest: string): string {
  return rest.replace(/\b[a-z]+[A-Z][A-Za-z]*\b/g, (word) => (Object.hasOwn(labelOf, word) ? labelOf[word]!.toLowerCase() : word));
}
