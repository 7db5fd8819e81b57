import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsDefined,
  IsObject,
  IsString,
  Matches,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import {
  type ColorSettings,
  DEFAULT_ACCENT_COLOR,
  DEFAULT_COLOR_SETTINGS,
  HEX_COLOR_PATTERN,
  INVALID_COLOR_MESSAGE,
  MAX_ASSET_URL_LENGTH,
  type PlatformAppearance,
  type ThemeColors,
  type UpdateColorSettingsRequest,
  type UpdatePlatformSettingsRequest,
  type UploadedAssetResponse,
} from '../contracts/platform-appearance';
import { assetUrlMessage, isSafeAssetUrl } from './appearance.validation';

/** A required '#RRGGBB' value; a missing one names its key, a malformed one gets the spec's message. */
function HexColor(key: string, example: string): PropertyDecorator {
  return (target, property) => {
    ApiProperty({ example, pattern: HEX_COLOR_PATTERN.source })(target, property);
    IsDefined({ message: `The color "${key}" is required.` })(target, property);
    Matches(HEX_COLOR_PATTERN, { message: INVALID_COLOR_MESSAGE })(target, property);
  };
}

const light = DEFAULT_COLOR_SETTINGS.light_theme;

/** One theme's 13 keys, all required; another key is refused (the global pipe forbids unknown fields). */
export class ThemeColorsDto implements ThemeColors {
  @HexColor('background', light.background) background: string;
  @HexColor('foreground', light.foreground) foreground: string;
  @HexColor('primary', light.primary) primary: string;
  @HexColor('primary_foreground', light.primary_foreground) primary_foreground: string;
  @HexColor('secondary', light.secondary) secondary: string;
  @HexColor('secondary_foreground', light.secondary_foreground) secondary_foreground: string;
  @HexColor('accent', light.accent) accent: string;
  @HexColor('accent_foreground', light.accent_foreground) accent_foreground: string;
  @HexColor('muted', light.muted) muted: string;
  @HexColor('muted_foreground', light.muted_foreground) muted_foreground: string;
  @HexColor('border', light.border) border: string;
  @HexColor('input', light.input) input: string;
  @HexColor('ring', light.ring) ring: string;
}

function Theme(name: 'light_theme' | 'dark_theme'): PropertyDecorator {
  const message = `${name} must be an object with the 13 color keys.`;
  return (target, property) => {
    ApiProperty({ type: ThemeColorsDto })(target, property);
    IsDefined({ message })(target, property);
    IsObject({ message })(target, property);
    ValidateNested()(target, property);
    Type(() => ThemeColorsDto)(target, property);
  };
}

export class UpdateColorSettingsDto implements UpdateColorSettingsRequest {
  @Theme('light_theme') light_theme: ThemeColorsDto;
  @Theme('dark_theme') dark_theme: ThemeColorsDto;
}

export class ColorSettingsDto implements ColorSettings {
  @ApiProperty({ type: ThemeColorsDto }) light_theme: ThemeColorsDto;
  @ApiProperty({ type: ThemeColorsDto }) dark_theme: ThemeColorsDto;
}

/** An https URL or a same-origin path; null, '' or left out: the built-in image. */
function AssetUrl(field: string): PropertyDecorator {
  const options: ValidationOptions = { message: assetUrlMessage(field) };
  return (target, property) => {
    ApiProperty({
      type: String,
      nullable: true,
      required: false,
      maxLength: MAX_ASSET_URL_LENGTH,
      example: field === 'Logo URL' ? 'https://example.com/logo.png' : '/api/files/{id}',
    })(target, property);
    Transform(({ value }: { value: unknown }) => {
      if (value === undefined || value === null) return null;
      if (typeof value !== 'string') return value;
      const trimmed = value.trim();
      return trimmed === '' ? null : trimmed;
    })(target, property);
    ValidateIf((_object: object, value: unknown) => value !== null && value !== undefined)(target, property);
    IsString(options)(target, property);
    ValidateBy(
      {
        name: 'isSafeAssetUrl',
        validator: { validate: (value) => typeof value === 'string' && isSafeAssetUrl(value) },
      },
      options,
    )(target, property);
  };
}

export class UpdatePlatformSettingsDto implements UpdatePlatformSettingsRequest {
  @AssetUrl('Logo URL') logoUrl: string | null;
  @AssetUrl('Favicon URL') faviconUrl: string | null;

  @ApiProperty({ example: DEFAULT_ACCENT_COLOR, pattern: HEX_COLOR_PATTERN.source })
  @IsDefined({ message: 'Accent color is required.' })
  @Matches(HEX_COLOR_PATTERN, { message: INVALID_COLOR_MESSAGE })
  accentColor: string;
}

export class PlatformAppearanceDto implements PlatformAppearance {
  @ApiProperty({ type: String, nullable: true }) logoUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) faviconUrl: string | null;
  @ApiProperty({ example: DEFAULT_ACCENT_COLOR }) accentColor: string;
  @ApiProperty({ type: ColorSettingsDto }) colors: ColorSettingsDto;
  @ApiProperty({ type: String, nullable: true }) updatedAt: string | null;
}

export class UploadedAssetDto implements UploadedAssetResponse {
  @ApiProperty({ example: '/api/files/7d0c6c5e-0000-4000-8000-000000000000' }) url: string;
}
