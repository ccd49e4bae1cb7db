CREATE TABLE "games" ("Event" TEXT, "White" TEXT, "Black" TEXT, "Date" TEXT, "Result" TEXT, "WhiteElo" INTEGER, "_plies" INTEGER, "_result" TEXT, "_termination" TEXT);
BEGIN;
INSERT INTO "games" VALUES
('Quotes','"Q" Smith','back\slash',NULL,'white wins',NULL,2,'*',NULL),
('C1  Latin-1  and UTF-8      end','Tab here',NULL,NULL,'1-0',NULL,1,'1-0',NULL),
('No Result tag',NULL,NULL,NULL,'0-1',NULL,1,'0-1',NULL),
('Neither',NULL,NULL,NULL,'*',NULL,1,'*',NULL),
('Rated Blitz game','Müller','José','2024.01.03','0-1',1500,4,'0-1','checkmate'),
('Live Chess','Tab here "q" back\slash, comma','x','2023.05.06','1/2-1/2',NULL,10,'1/2-1/2','threefold'),
('Chess960',NULL,NULL,NULL,'*',NULL,3,'*',NULL),
('No moves',NULL,NULL,NULL,'1-0',NULL,0,'1-0',NULL),
('Stalemate',NULL,NULL,NULL,'1/2-1/2',NULL,1,'1/2-1/2','stalemate');
COMMIT;
