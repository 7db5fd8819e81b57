import { describe, expect, it } from 'vitest';
import { startPage } from './pageLoaders';

describe('startPage (the screen whose code loads before the session check)', () => {
  it('is the chat for a signed-in browser opening / or /chat', () => {
    expect(startPage('/chat', '', true)).toBe('chat');
    expect(startPage('/', '', true)).toBe('chat');
  });

  it('is nothing when a signed-in browser is sent elsewhere or opens another page', () => {
    expect(startPage('/', '?redirect=%2Fadmin', true)).toBeNull();
    expect(startPage('/company/admin/users', '', true)).toBeNull();
  });

  it('is the sign-in form for a signed-out visitor on / or /chat, and nothing on other pages', () => {
    expect(startPage('/', '', false)).toBe('sign-in');
    expect(startPage('/chat', '', false)).toBe('sign-in');
    expect(startPage('/', '?redirect=%2Fadmin', false)).toBe('sign-in');
    expect(startPage('/register', '', false)).toBeNull();
  });
});
