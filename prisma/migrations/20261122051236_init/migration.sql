-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "PlayStyle" AS ENUM ('SP', 'DP');

-- CreateEnum
CREATE TYPE "Difficulty" AS ENUM ('BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA');

-- CreateEnum
CREATE TYPE "ClearLamp" AS ENUM ('NO_PLAY', 'FAILED', 'ASSIST_CLEAR', 'EASY_CLEAR', 'CLEAR', 'HARD_CLEAR', 'EX_HARD_CLEAR', 'FULLCOMBO_CLEAR');

-- CreateEnum
CREATE TYPE "ArenaClass" AS ENUM ('A1', 'A2', 'A3', 'A4', 'A5', 'B1', 'B2', 'B3', 'B4', 'B5');

-- CreateEnum
CREATE TYPE "RadarCategory" AS ENUM ('NOTES', 'CHORD', 'PEAK', 'CHARGE', 'SCRATCH', 'SOFLAN');

-- CreateEnum
CREATE TYPE "BadgeRole" AS ENUM ('COFFEE', 'SABA', 'IIDX', 'DEVELOPER', 'PRO');

-- CreateEnum
CREATE TYPE "ImportSource" AS ENUM ('ROWS', 'OFFICIAL_CSV', 'REFLUX', 'DAKEN_COUNTER', 'RESULT_TECHO', 'TRANSFER');

-- CreateEnum
CREATE TYPE "NotificationType" AS ENUM ('NEW_FOLLOWER', 'OVERTAKEN', 'FOLLOW_APPROVED', 'FOLLOW_REQUEST');

-- CreateEnum
CREATE TYPE "VoteType" AS ENUM ('UPVOTE', 'DOWNVOTE');

-- CreateEnum
CREATE TYPE "OAuthTokenKind" AS ENUM ('ACCESS', 'REFRESH');

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "profileText" TEXT,
    "profileImage" TEXT,
    "gameId" TEXT,
    "socialId" TEXT,
    "isPublic" BOOLEAN NOT NULL DEFAULT true,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "showArenaClass" BOOLEAN NOT NULL DEFAULT true,
    "showArenaRank" BOOLEAN NOT NULL DEFAULT false,
    "showArea" BOOLEAN NOT NULL DEFAULT false,
    "showGrade" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserBadge" (
    "userId" TEXT NOT NULL,
    "role" "BadgeRole" NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "grantedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UserBadge_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "ExternalIdentity" (
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExternalIdentity_pkey" PRIMARY KEY ("issuer","subject")
);

-- CreateTable
CREATE TABLE "PlayerVersionStatus" (
    "userId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "totalBpi" DOUBLE PRECISION NOT NULL DEFAULT -15,
    "playedCount" INTEGER NOT NULL DEFAULT 0,
    "arenaClass" "ArenaClass",
    "arenaRank" INTEGER,
    "area" TEXT,
    "gradeSp" TEXT,
    "gradeDp" TEXT,
    "bestArenaClass" "ArenaClass",
    "bestArenaClassAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PlayerVersionStatus_pkey" PRIMARY KEY ("userId","version")
);

-- CreateTable
CREATE TABLE "Song" (
    "id" SERIAL NOT NULL,
    "title" TEXT NOT NULL,
    "genre" TEXT,
    "artist" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Song_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Chart" (
    "id" SERIAL NOT NULL,
    "songId" INTEGER NOT NULL,
    "playStyle" "PlayStyle" NOT NULL,
    "difficulty" "Difficulty" NOT NULL,
    "level" INTEGER NOT NULL,
    "notes" INTEGER NOT NULL,
    "bpm" TEXT NOT NULL DEFAULT '',
    "textage" TEXT,
    "releasedVersion" INTEGER,
    "removedInVersion" TEXT,
    "radarCategory" "RadarCategory",
    "attributes" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Chart_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChartDefinition" (
    "id" SERIAL NOT NULL,
    "chartId" INTEGER NOT NULL,
    "definitionsVersion" TEXT NOT NULL,
    "wr" INTEGER,
    "kaidenAvg" INTEGER,
    "coef" DOUBLE PRECISION,
    "notes" INTEGER NOT NULL,
    "isCurrent" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChartDefinition_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DefinitionsRelease" (
    "version" TEXT NOT NULL,
    "requireVersion" TEXT,
    "importedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "added" INTEGER NOT NULL DEFAULT 0,
    "changed" INTEGER NOT NULL DEFAULT 0,
    "unchanged" INTEGER NOT NULL DEFAULT 0,
    "removed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "DefinitionsRelease_pkey" PRIMARY KEY ("version")
);

-- CreateTable
CREATE TABLE "ImportBatch" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "source" "ImportSource" NOT NULL,
    "rowCount" INTEGER NOT NULL DEFAULT 0,
    "updatedCount" INTEGER NOT NULL DEFAULT 0,
    "bpiUpdatedCount" INTEGER NOT NULL DEFAULT 0,
    "previousTotalBpi" DOUBLE PRECISION,
    "totalBpi" DOUBLE PRECISION,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ImportBatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Score" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "chartId" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "batchId" TEXT NOT NULL,
    "exScore" INTEGER NOT NULL,
    "clearLamp" "ClearLamp",
    "missCount" INTEGER,
    "bpi" DOUBLE PRECISION,
    "definitionId" INTEGER,
    "playedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Score_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BestScore" (
    "userId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "chartId" INTEGER NOT NULL,
    "exScore" INTEGER NOT NULL,
    "exScoreId" INTEGER NOT NULL,
    "bpi" DOUBLE PRECISION,
    "clearLamp" "ClearLamp",
    "clearLampId" INTEGER,
    "missCount" INTEGER,
    "missCountId" INTEGER,
    "playedAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BestScore_pkey" PRIMARY KEY ("userId","version","chartId")
);

-- CreateTable
CREATE TABLE "Follow" (
    "followerId" TEXT NOT NULL,
    "followingId" TEXT NOT NULL,
    "approvedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Follow_pkey" PRIMARY KEY ("followerId","followingId")
);

-- CreateTable
CREATE TABLE "FollowRequest" (
    "id" SERIAL NOT NULL,
    "requesterId" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FollowRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FollowInviteToken" (
    "userId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FollowInviteToken_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "FollowList" (
    "id" SERIAL NOT NULL,
    "ownerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "isPublic" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FollowList_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FollowListMember" (
    "listId" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FollowListMember_pkey" PRIMARY KEY ("listId","userId")
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" SERIAL NOT NULL,
    "recipientId" TEXT NOT NULL,
    "type" "NotificationType" NOT NULL,
    "actorId" TEXT,
    "chartId" INTEGER,
    "version" TEXT,
    "data" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationReadState" (
    "userId" TEXT NOT NULL,
    "lastReadAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NotificationReadState_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "SongNote" (
    "id" SERIAL NOT NULL,
    "chartId" INTEGER NOT NULL,
    "authorId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "authorTotalBpi" DOUBLE PRECISION,
    "upvoteCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SongNote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SongNoteUpvote" (
    "noteId" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SongNoteUpvote_pkey" PRIMARY KEY ("noteId","userId")
);

-- CreateTable
CREATE TABLE "FingeringPattern" (
    "chartId" INTEGER NOT NULL,
    "pattern" TEXT NOT NULL,
    "score" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "upvotes" INTEGER NOT NULL DEFAULT 0,
    "downvotes" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FingeringPattern_pkey" PRIMARY KEY ("chartId","pattern")
);

-- CreateTable
CREATE TABLE "FingeringPatternVote" (
    "chartId" INTEGER NOT NULL,
    "pattern" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "type" "VoteType" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FingeringPatternVote_pkey" PRIMARY KEY ("chartId","pattern","userId")
);

-- CreateTable
CREATE TABLE "OptimizeMemo" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "targetBpi" DOUBLE PRECISION,
    "report" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OptimizeMemo_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TowerEntry" (
    "userId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "playDate" DATE NOT NULL,
    "keyCount" INTEGER NOT NULL DEFAULT 0,
    "scratchCount" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TowerEntry_pkey" PRIMARY KEY ("userId","version","playDate")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "userId" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "OAuthClient" (
    "id" TEXT NOT NULL,
    "userId" TEXT,
    "name" TEXT,
    "redirectUris" TEXT[],
    "secretHash" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthClient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuthAuthorizationCode" (
    "codeHash" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "codeChallenge" TEXT NOT NULL,
    "codeChallengeMethod" TEXT NOT NULL DEFAULT 'S256',
    "scope" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "consumedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthAuthorizationCode_pkey" PRIMARY KEY ("codeHash")
);

-- CreateTable
CREATE TABLE "OAuthToken" (
    "tokenHash" TEXT NOT NULL,
    "kind" "OAuthTokenKind" NOT NULL,
    "familyId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthToken_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "ArenaSnapshot" (
    "id" SERIAL NOT NULL,
    "version" TEXT NOT NULL,
    "fetchedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "entryCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ArenaSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ArenaEntry" (
    "snapshotId" INTEGER NOT NULL,
    "gameId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "area" TEXT,
    "arenaClass" "ArenaClass" NOT NULL,
    "rank" INTEGER,
    "wins" INTEGER,
    "a1Continue" INTEGER,
    "gradeSp" TEXT,
    "gradeDp" TEXT,
    "updatedLabel" TEXT,

    CONSTRAINT "ArenaEntry_pkey" PRIMARY KEY ("snapshotId","gameId")
);

-- CreateTable
CREATE TABLE "ArenaAverage" (
    "chartId" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "arenaClass" "ArenaClass" NOT NULL,
    "avgExScore" DOUBLE PRECISION NOT NULL,
    "count" INTEGER NOT NULL,
    "avgBpi" DOUBLE PRECISION,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ArenaAverage_pkey" PRIMARY KEY ("chartId","version","arenaClass")
);

-- CreateTable
CREATE TABLE "RadarCache" (
    "userId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "notes" DOUBLE PRECISION NOT NULL DEFAULT -15,
    "chord" DOUBLE PRECISION NOT NULL DEFAULT -15,
    "peak" DOUBLE PRECISION NOT NULL DEFAULT -15,
    "charge" DOUBLE PRECISION NOT NULL DEFAULT -15,
    "scratch" DOUBLE PRECISION NOT NULL DEFAULT -15,
    "soflan" DOUBLE PRECISION NOT NULL DEFAULT -15,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RadarCache_pkey" PRIMARY KEY ("userId","version")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_nameKey_key" ON "User"("nameKey");

-- CreateIndex
CREATE INDEX "User_isPublic_idx" ON "User"("isPublic");

-- CreateIndex
CREATE INDEX "User_gameId_idx" ON "User"("gameId");

-- CreateIndex
CREATE INDEX "ExternalIdentity_userId_idx" ON "ExternalIdentity"("userId");

-- CreateIndex
CREATE INDEX "PlayerVersionStatus_version_totalBpi_idx" ON "PlayerVersionStatus"("version", "totalBpi" DESC);

-- CreateIndex
CREATE INDEX "PlayerVersionStatus_version_area_totalBpi_idx" ON "PlayerVersionStatus"("version", "area", "totalBpi" DESC);

-- CreateIndex
CREATE INDEX "PlayerVersionStatus_version_arenaClass_idx" ON "PlayerVersionStatus"("version", "arenaClass");

-- CreateIndex
CREATE UNIQUE INDEX "Song_title_key" ON "Song"("title");

-- CreateIndex
CREATE INDEX "Chart_playStyle_level_difficulty_idx" ON "Chart"("playStyle", "level", "difficulty");

-- CreateIndex
CREATE INDEX "Chart_releasedVersion_idx" ON "Chart"("releasedVersion");

-- CreateIndex
CREATE UNIQUE INDEX "Chart_songId_playStyle_difficulty_key" ON "Chart"("songId", "playStyle", "difficulty");

-- CreateIndex
CREATE INDEX "ChartDefinition_chartId_isCurrent_idx" ON "ChartDefinition"("chartId", "isCurrent");

-- CreateIndex
CREATE INDEX "ChartDefinition_isCurrent_idx" ON "ChartDefinition"("isCurrent");

-- CreateIndex
CREATE UNIQUE INDEX "ChartDefinition_chartId_definitionsVersion_key" ON "ChartDefinition"("chartId", "definitionsVersion");

-- CreateIndex
CREATE INDEX "ImportBatch_userId_version_createdAt_idx" ON "ImportBatch"("userId", "version", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "ImportBatch_createdAt_idx" ON "ImportBatch"("createdAt");

-- CreateIndex
CREATE INDEX "Score_userId_version_chartId_id_idx" ON "Score"("userId", "version", "chartId", "id" DESC);

-- CreateIndex
CREATE INDEX "Score_userId_version_playedAt_idx" ON "Score"("userId", "version", "playedAt" DESC);

-- CreateIndex
CREATE INDEX "Score_userId_version_createdAt_idx" ON "Score"("userId", "version", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Score_chartId_version_idx" ON "Score"("chartId", "version");

-- CreateIndex
CREATE INDEX "Score_batchId_idx" ON "Score"("batchId");

-- CreateIndex
CREATE INDEX "Score_version_playedAt_idx" ON "Score"("version", "playedAt" DESC);

-- CreateIndex
CREATE INDEX "BestScore_chartId_version_exScore_idx" ON "BestScore"("chartId", "version", "exScore" DESC);

-- CreateIndex
CREATE INDEX "BestScore_version_chartId_bpi_idx" ON "BestScore"("version", "chartId", "bpi" DESC);

-- CreateIndex
CREATE INDEX "Follow_followingId_createdAt_idx" ON "Follow"("followingId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Follow_followerId_createdAt_idx" ON "Follow"("followerId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "FollowRequest_targetId_createdAt_idx" ON "FollowRequest"("targetId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "FollowRequest_requesterId_targetId_key" ON "FollowRequest"("requesterId", "targetId");

-- CreateIndex
CREATE UNIQUE INDEX "FollowInviteToken_tokenHash_key" ON "FollowInviteToken"("tokenHash");

-- CreateIndex
CREATE INDEX "FollowList_ownerId_idx" ON "FollowList"("ownerId");

-- CreateIndex
CREATE INDEX "FollowListMember_userId_idx" ON "FollowListMember"("userId");

-- CreateIndex
CREATE INDEX "Notification_recipientId_createdAt_idx" ON "Notification"("recipientId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "SongNote_chartId_createdAt_idx" ON "SongNote"("chartId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "SongNote_chartId_upvoteCount_idx" ON "SongNote"("chartId", "upvoteCount" DESC);

-- CreateIndex
CREATE INDEX "SongNote_createdAt_idx" ON "SongNote"("createdAt" DESC);

-- CreateIndex
CREATE INDEX "SongNote_upvoteCount_createdAt_idx" ON "SongNote"("upvoteCount" DESC, "createdAt" DESC);

-- CreateIndex
CREATE INDEX "SongNote_authorId_idx" ON "SongNote"("authorId");

-- CreateIndex
CREATE INDEX "SongNoteUpvote_userId_idx" ON "SongNoteUpvote"("userId");

-- CreateIndex
CREATE INDEX "FingeringPattern_chartId_score_idx" ON "FingeringPattern"("chartId", "score" DESC);

-- CreateIndex
CREATE INDEX "FingeringPattern_pattern_idx" ON "FingeringPattern"("pattern");

-- CreateIndex
CREATE INDEX "FingeringPatternVote_userId_idx" ON "FingeringPatternVote"("userId");

-- CreateIndex
CREATE INDEX "OptimizeMemo_userId_createdAt_idx" ON "OptimizeMemo"("userId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "TowerEntry_version_playDate_idx" ON "TowerEntry"("version", "playDate");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_keyHash_key" ON "ApiKey"("keyHash");

-- CreateIndex
CREATE UNIQUE INDEX "OAuthClient_userId_key" ON "OAuthClient"("userId");

-- CreateIndex
CREATE INDEX "OAuthAuthorizationCode_expiresAt_idx" ON "OAuthAuthorizationCode"("expiresAt");

-- CreateIndex
CREATE INDEX "OAuthToken_userId_idx" ON "OAuthToken"("userId");

-- CreateIndex
CREATE INDEX "OAuthToken_familyId_idx" ON "OAuthToken"("familyId");

-- CreateIndex
CREATE INDEX "OAuthToken_expiresAt_idx" ON "OAuthToken"("expiresAt");

-- CreateIndex
CREATE INDEX "ArenaSnapshot_version_fetchedAt_idx" ON "ArenaSnapshot"("version", "fetchedAt" DESC);

-- CreateIndex
CREATE INDEX "ArenaEntry_gameId_idx" ON "ArenaEntry"("gameId");

-- CreateIndex
CREATE INDEX "ArenaEntry_snapshotId_arenaClass_idx" ON "ArenaEntry"("snapshotId", "arenaClass");

-- AddForeignKey
ALTER TABLE "UserBadge" ADD CONSTRAINT "UserBadge_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExternalIdentity" ADD CONSTRAINT "ExternalIdentity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PlayerVersionStatus" ADD CONSTRAINT "PlayerVersionStatus_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Chart" ADD CONSTRAINT "Chart_songId_fkey" FOREIGN KEY ("songId") REFERENCES "Song"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChartDefinition" ADD CONSTRAINT "ChartDefinition_chartId_fkey" FOREIGN KEY ("chartId") REFERENCES "Chart"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChartDefinition" ADD CONSTRAINT "ChartDefinition_definitionsVersion_fkey" FOREIGN KEY ("definitionsVersion") REFERENCES "DefinitionsRelease"("version") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportBatch" ADD CONSTRAINT "ImportBatch_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Score" ADD CONSTRAINT "Score_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Score" ADD CONSTRAINT "Score_chartId_fkey" FOREIGN KEY ("chartId") REFERENCES "Chart"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Score" ADD CONSTRAINT "Score_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "ImportBatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Score" ADD CONSTRAINT "Score_definitionId_fkey" FOREIGN KEY ("definitionId") REFERENCES "ChartDefinition"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BestScore" ADD CONSTRAINT "BestScore_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BestScore" ADD CONSTRAINT "BestScore_chartId_fkey" FOREIGN KEY ("chartId") REFERENCES "Chart"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Follow" ADD CONSTRAINT "Follow_followerId_fkey" FOREIGN KEY ("followerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Follow" ADD CONSTRAINT "Follow_followingId_fkey" FOREIGN KEY ("followingId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FollowRequest" ADD CONSTRAINT "FollowRequest_requesterId_fkey" FOREIGN KEY ("requesterId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FollowRequest" ADD CONSTRAINT "FollowRequest_targetId_fkey" FOREIGN KEY ("targetId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FollowInviteToken" ADD CONSTRAINT "FollowInviteToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FollowList" ADD CONSTRAINT "FollowList_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FollowListMember" ADD CONSTRAINT "FollowListMember_listId_fkey" FOREIGN KEY ("listId") REFERENCES "FollowList"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FollowListMember" ADD CONSTRAINT "FollowListMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_recipientId_fkey" FOREIGN KEY ("recipientId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_chartId_fkey" FOREIGN KEY ("chartId") REFERENCES "Chart"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationReadState" ADD CONSTRAINT "NotificationReadState_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SongNote" ADD CONSTRAINT "SongNote_chartId_fkey" FOREIGN KEY ("chartId") REFERENCES "Chart"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SongNote" ADD CONSTRAINT "SongNote_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SongNoteUpvote" ADD CONSTRAINT "SongNoteUpvote_noteId_fkey" FOREIGN KEY ("noteId") REFERENCES "SongNote"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SongNoteUpvote" ADD CONSTRAINT "SongNoteUpvote_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FingeringPattern" ADD CONSTRAINT "FingeringPattern_chartId_fkey" FOREIGN KEY ("chartId") REFERENCES "Chart"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FingeringPatternVote" ADD CONSTRAINT "FingeringPatternVote_chartId_fkey" FOREIGN KEY ("chartId") REFERENCES "Chart"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FingeringPatternVote" ADD CONSTRAINT "FingeringPatternVote_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OptimizeMemo" ADD CONSTRAINT "OptimizeMemo_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TowerEntry" ADD CONSTRAINT "TowerEntry_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthClient" ADD CONSTRAINT "OAuthClient_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthAuthorizationCode" ADD CONSTRAINT "OAuthAuthorizationCode_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "OAuthClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthAuthorizationCode" ADD CONSTRAINT "OAuthAuthorizationCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthToken" ADD CONSTRAINT "OAuthToken_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "OAuthClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthToken" ADD CONSTRAINT "OAuthToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ArenaEntry" ADD CONSTRAINT "ArenaEntry_snapshotId_fkey" FOREIGN KEY ("snapshotId") REFERENCES "ArenaSnapshot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ArenaAverage" ADD CONSTRAINT "ArenaAverage_chartId_fkey" FOREIGN KEY ("chartId") REFERENCES "Chart"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RadarCache" ADD CONSTRAINT "RadarCache_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
