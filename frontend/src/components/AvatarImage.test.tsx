import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AvatarImage, initialOf, PLACEHOLDER_AVATAR } from './AvatarImage';

describe('AvatarImage', () => {
  it("shows the first letter of the user's name when there is no picture", () => {
    render(<AvatarImage src={PLACEHOLDER_AVATAR} name="grace Hopper" fallback="initial" />);
    expect(screen.getByText('G')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it("falls back to 'U' when the user has no name", () => {
    render(<AvatarImage src={null} name="" fallback="initial" />);
    expect(screen.getByText('U')).toBeInTheDocument();
    expect(initialOf(undefined)).toBe('U');
  });

  it('shows the letter when the picture fails to load', () => {
    render(<AvatarImage src="/api/files/broken" name="Ada" fallback="initial" />);
    fireEvent.error(screen.getByRole('img'));
    expect(screen.getByText('A')).toBeInTheDocument();
  });

  it('swaps a broken image for the placeholder image', () => {
    render(<AvatarImage src="/api/files/broken" name="Ada" />);
    const img = screen.getByRole('img');
    expect(img).toHaveAttribute('src', '/api/files/broken');
    fireEvent.error(img);
    expect(screen.getByRole('img')).toHaveAttribute('src', PLACEHOLDER_AVATAR);
  });
});
