import { Field, InputType } from 'type-graphql';

@InputType('StatsPrivacyInput', { description: 'Omitted switches stay as they are' })
export class StatsPrivacyInput {
  @Field(() => Boolean, { nullable: true, description: 'Show the arena class (and best arena class) to others' })
  showArenaClass?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Show the arena rank to others' }) showArenaRank?:
    boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Show the area to others' }) showArea?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Show the dan grades to others' }) showGrade?: boolean | null;
}

@InputType('CreateProfileInput', { description: 'The profile of a new player (an external identity signing up)' })
export class CreateProfileInput {
  @Field(() => String, { description: '2–20 characters: letters, digits, kana, kanji, space and . _ -' }) name!: string;
  @Field(() => Boolean, { nullable: true, description: 'default true' }) isPublic?: boolean | null;
  @Field(() => String, { nullable: true, description: '8 digits, NNNN-NNNN accepted' }) gameId?: string | null;
  @Field(() => String, { nullable: true, description: 'X (Twitter) id: letters, digits, _; at most 15' }) socialId?:
    string | null;
  @Field(() => String, { nullable: true, description: 'at most 500 characters' }) profileText?: string | null;
  @Field(() => String, { nullable: true, description: 'https URL, at most 1024 characters' }) profileImage?:
    string | null;
  @Field(() => StatsPrivacyInput, {
    nullable: true,
    description: 'Which profile stats others may see (default: all shown)',
  })
  statsPrivacy?: StatsPrivacyInput | null;
}

@InputType('UpdateProfileInput', { description: 'PATCH semantics: omitted fields stay; null clears an optional field' })
export class UpdateProfileInput {
  @Field(() => String, {
    nullable: true,
    description: 'New user name: 2–20 characters (letters, digits, kana, kanji, space and . _ -), unique',
  })
  name?: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether anyone may see your data (false: only approved followers)',
  })
  isPublic?: boolean | null;
  @Field(() => String, { nullable: true, description: 'IIDX game id: 8 digits (NNNN-NNNN accepted); null clears it' })
  gameId?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'X (Twitter) id: letters, digits, _; at most 15; null clears it',
  })
  socialId?: string | null;
  @Field(() => String, { nullable: true, description: 'Profile text, at most 500 characters; null clears it' })
  profileText?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Profile image: an https URL of at most 1024 characters; null clears it',
  })
  profileImage?: string | null;
  @Field(() => StatsPrivacyInput, {
    nullable: true,
    description: 'Which profile stats others may see; null leaves them as they are',
  })
  statsPrivacy?: StatsPrivacyInput | null;
}
