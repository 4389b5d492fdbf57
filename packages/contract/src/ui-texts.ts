/**
 * Texts of the web app beyond the specification's own: states, confirmations and explanations
 * that tell people what happened and what they can do next.
 */
export const uiTexts = {
  productMarks: {
    wished: 'Wished',
    booked: 'Booked',
    wishedHint: (productName: string) => `${productName} is in your wish list`,
    bookedHint: (productName: string) => `You have booked ${productName}`,
  },
} as const;
