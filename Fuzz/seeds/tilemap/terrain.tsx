<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="terrain" tilewidth="8" tileheight="8" tilecount="8">
 <tileoffset x="2" y="-3"/>
 <properties>
  <property name="biome" value="grass"/>
 </properties>
 <image source="terrain.png" width="32" height="16"/>
 <tile id="5" type="Water" probability="0.5">
  <properties>
   <property name="speed" type="float" value="0.25"/>
  </properties>
 </tile>
</tileset>
