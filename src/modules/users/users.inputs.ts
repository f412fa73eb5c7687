import { Field, InputType } from 'type-graphql';

@InputType('StatsPrivacyInput', { description: 'Omitted switches stay as they are' })
export class StatsPrivacyInput {
  @Field(() => Boolean, { nullable: true }) showArenaClass?: boolean | null;
  @Field(() => Boolean, { nullable: true }) showArenaRank?: boolean | null;
  @Field(() => Boolean, { nullable: true }) showArea?: boolean | null;
  @Field(() => Boolean, { nullable: true }) showGrade?: boolean | null;
}

@InputType('CreateProfileInput')
export class CreateProfileInput {
  @Field(() => String, { description: '2–20 characters: letters, digits, kana, kanji, space and . _ -' }) name!: string;
  @Field(() => Boolean, { nullable: true, description: 'default true' }) isPublic?: boolean | null;
  @Field(() => String, { nullable: true, description: '8 digits, NNNN-NNNN accepted' }) gameId?: string | null;
  @Field(() => String, { nullable: true, description: 'X (Twitter) id: letters, digits, _; at most 15' }) socialId?: string | null;
  @Field(() => String, { nullable: true, description: 'at most 500 characters' }) profileText?: string | null;
  @Field(() => String, { nullable: true, description: 'https URL, at most 1024 characters' }) profileImage?: string | null;
  @Field(() => StatsPrivacyInput, { nullable: true, description: 'Which profile stats others may see (default: all shown)' }) statsPrivacy?: StatsPrivacyInput | null;
}

@InputType('UpdateProfileInput', { description: 'PATCH semantics: omitted fields stay; null clears an optional field' })
export class UpdateProfileInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => Boolean, { nullable: true }) isPublic?: boolean | null;
  @Field(() => String, { nullable: true }) gameId?: string | null;
  @Field(() => String, { nullable: true }) socialId?: string | null;
  @Field(() => String, { nullable: true }) profileText?: string | null;
  @Field(() => String, { nullable: true }) profileImage?: string | null;
  @Field(() => StatsPrivacyInput, { nullable: true, description: 'Which profile stats others may see; null leaves them as they are' }) statsPrivacy?: StatsPrivacyInput | null;
}
