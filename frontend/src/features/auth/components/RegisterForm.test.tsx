import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { RegisterForm } from './RegisterForm';

describe('RegisterForm', () => {
  it('asks for every field and sends nothing while one is missing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const user = userEvent.setup();
    renderWithProviders(<RegisterForm onVerificationRequired={vi.fn()} />, { path: '/register' });

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Full Name'), 'Ada Lovelace');
    // Company Name left empty.
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('Please fill in all required fields')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('treats a blank (spaces only) full name as missing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<RegisterForm onVerificationRequired={vi.fn()} />, { path: '/register' });

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Full Name'), '   ');
    await user.type(screen.getByLabelText('Company Name'), 'Analytical Engines');
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('Please fill in all required fields')).toBeInTheDocument();
  });

  it('links back to sign in', () => {
    renderWithProviders(<RegisterForm onVerificationRequired={vi.fn()} />, { path: '/register' });
    expect(screen.getByRole('link', { name: 'Already have an account? Sign in' })).toHaveAttribute(
      'href',
      '/',
    );
  });
});
