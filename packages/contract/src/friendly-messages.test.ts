import { describe, expect, it } from 'vitest';
import { friendlyMessage, plainValidation } from './friendly-messages.ts';
import { messages } from './messages.ts';

describe('friendlyMessage', () => {
  it('names the field by its label', () => {
    expect(friendlyMessage('phoneNumber is required')).toBe('Phone number is required');
    expect(friendlyMessage('productName is required')).toBe('Product name is required');
    expect(friendlyMessage('yearsOfUsedProduct is required')).toBe('Years of use is required');
    expect(friendlyMessage('originalPrice must be greater than 0')).toBe('Original price must be greater than 0');
    expect(friendlyMessage('categoryName is required')).toBe('Category name is required');
    expect(friendlyMessage('phone: must be a phone number')).toBe('Phone number must be a phone number');
  });

  it('rewords the messages that a label alone does not make plain', () => {
    expect(friendlyMessage('id: must be a valid id')).toBe('This link does not lead to anything we have. Check the address.');
    expect(friendlyMessage('bookingId: must be a valid id')).toBe('This link does not lead to anything we have. Check the address.');
    expect(friendlyMessage('condition must be one of Excellent, Good, Fair')).toBe('Condition is required: choose one');
  });

  it('names a second field by its label, and drops a field name before a sentence of its own', () => {
    expect(friendlyMessage('minPrice: minPrice must not be more than maxPrice')).toBe('Lowest price must not be more than highest price');
    expect(friendlyMessage('doorHeight: doorHeight is needed with the other door measurement')).toBe(
      'Doorway height is needed with the other door measurement',
    );
    expect(friendlyMessage('reason: Say why, in a few words.')).toBe('Say why, in a few words.');
  });

  it('turns a validator’s own wording into plain words', () => {
    expect(friendlyMessage('originalPrice: Invalid input: expected number, received string')).toBe(plainValidation.field('Original price'));
    expect(friendlyMessage('Invalid input: expected number, received string')).toBe(plainValidation.unknown);
    expect(friendlyMessage('Too small: expected string to have >=1 characters')).toBe(plainValidation.unknown);
  });

  it('keeps the specification’s messages exactly as written, also after the field name the API puts first', () => {
    for (const message of [messages.passwordRequired, messages.passwordTooShort, messages.photoRequired, messages.roleRequired, messages.productCategoryRequired]) {
      expect(friendlyMessage(message)).toBe(message);
    }
    expect(friendlyMessage(`password: ${messages.passwordTooShort}`)).toBe(messages.passwordTooShort);
    expect(friendlyMessage(`categoryId: ${messages.productCategoryRequired}`)).toBe(messages.productCategoryRequired);
  });

  it('leaves other messages alone', () => {
    expect(friendlyMessage('Booking not found.')).toBe('Booking not found.');
    expect(friendlyMessage('constructor is odd')).toBe('constructor is odd');
  });
});
