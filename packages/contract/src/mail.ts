/** Fixed texts of the e-mails the marketplace sends (their layout; each e-mail brings its own words). */
export const mailTexts = {
  footer: 'You receive this e-mail because you have an account at Used Furniture co. Ltd.',
  unsubscribe: 'Unsubscribe from these e-mails',
  /** Before the plain address of a button's link, for mail clients that show no buttons. */
  linkFallback: 'If the button does not work, open this address:',
} as const;
