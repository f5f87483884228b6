<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="terrain" tilewidth="16" tileheight="16" spacing="1" margin="1" tilecount="8" columns="4">
 <image source="terrain.png" width="69" height="35"/>
</tileset>
